import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What the cardholder chose on the simulated issuer page. */
export type ChallengeDecision = 'authorise' | 'refuse';

/** The content of a sandbox challenge result (`cres`). */
export interface ChallengeResponse {
  readonly paymentId: string;
  readonly transactionId: string;
  readonly decision: ChallengeDecision;
}

const payloadSchema = z.strictObject({
  paymentId: z.string().min(1),
  transactionId: z.string().min(1),
  decision: z.enum(['authorise', 'refuse']),
});

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_CRES_LENGTH = 4096;

function sign(secret: string, encodedPayload: string): Buffer {
  return createHmac('sha256', secret).update(encodedPayload).digest();
}

/**
 * Creates the `cres` the simulated issuer page hands back for a challenge: a base64url JSON
 * payload, a dot, and the base64url HMAC-SHA256 of the payload with `secret`.
 */
export function createChallengeResponse(options: ChallengeResponse & { readonly secret: string }): string {
  const payload: ChallengeResponse = {
    paymentId: options.paymentId,
    transactionId: options.transactionId,
    decision: options.decision,
  };
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${encoded}.${sign(options.secret, encoded).toString('base64url')}`;
}

/**
 * Reads a `cres` made by `createChallengeResponse` with the same `secret`. Returns `null` when it
 * is malformed or its signature does not match (compared in constant time). It does not check
 * which payment or transaction the result belongs to: the caller does.
 */
export function verifyChallengeResponse(options: {
  readonly secret: string;
  readonly cres: string;
}): ChallengeResponse | null {
  const { cres } = options;
  if (cres.length > MAX_CRES_LENGTH) return null;
  const parts = cres.split('.');
  const [encoded, signature] = parts;
  if (parts.length !== 2 || encoded === undefined || signature === undefined) return null;
  if (!BASE64URL.test(encoded) || !BASE64URL.test(signature)) return null;

  const expected = sign(options.secret, encoded);
  const given = Buffer.from(signature, 'base64url');
  // Only the canonical encoding counts: base64url decoding ignores trailing bits.
  if (given.length !== expected.length || given.toString('base64url') !== signature) return null;
  if (!timingSafeEqual(given, expected)) return null;

  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = payloadSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
