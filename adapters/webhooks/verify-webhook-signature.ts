import { timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { systemClock } from '../shared/index.js';
import { MAX_WEBHOOK_SECRETS, webhookSecrets } from './webhook-secrets.js';
import { payloadData, webhookSignature, type WebhookPayload } from './webhook-signature.js';

/** How far a signature's time may be from the receiver's, by default: 300 seconds (five minutes). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The longest `Paystate-Signature` value read: 4,096 characters (a few dozen signatures). */
export const MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH = 4096;

/**
 * Why a webhook request is not taken as signed, by a stable `code` (docs/webhooks.md#verifying); messages
 * never repeat the body, the header or a secret.
 */
export type WebhookVerificationError =
  | { readonly code: 'missing_header'; readonly message: string }
  | { readonly code: 'malformed_header'; readonly message: string }
  | { readonly code: 'no_matching_signature'; readonly message: string }
  | { readonly code: 'timestamp_out_of_tolerance'; readonly message: string; readonly timestamp: number };

/** The stable `code` of a `WebhookVerificationError`. */
export type WebhookVerificationErrorCode = WebhookVerificationError['code'];

/** What `verifyWebhookSignature` checks. */
export interface VerifyWebhookSignatureOptions {
  /**
   * The raw body as received, before any JSON parsing: its bytes (a `Buffer` is a `Uint8Array`; the
   * `ArrayBuffer` of `await request.arrayBuffer()`), or its text decoded as UTF-8. A body parsed and
   * serialized again does not verify; a parsed one (an object) is a `TypeError`.
   */
  readonly payload: WebhookPayload;
  /**
   * The `Paystate-Signature` header as the framework gives it: `request.headers.get(…)` (a string or
   * `null`), node's `req.headers['paystate-signature']` (a string, or `undefined`), an array of one.
   */
  readonly header: string | readonly string[] | null | undefined;
  /** The endpoint's secret, or several while one is rotated: a signature made with any of them counts. */
  readonly secrets: string | readonly string[];
  /** How far `t` may be from `now`, either way, in seconds. Default `DEFAULT_WEBHOOK_TOLERANCE_SECONDS` (300). */
  readonly toleranceSeconds?: number;
  /** The receiver's time in epoch milliseconds (`Clock.now()`, `Date.now()`). Default: the system clock. */
  readonly now?: number;
}

/** A signature that verified: when it was made (`t`, Unix seconds). */
export interface VerifiedWebhookSignature {
  readonly timestamp: number;
}

interface ParsedHeader {
  readonly timestamp: number;
  readonly signatures: readonly Buffer[];
}

const TIMESTAMP = /^\d{1,15}$/;
const V1 = /^[0-9a-fA-F]{64}$/;
const KEY = /^[A-Za-z0-9_-]+$/;

const malformed = (message: string): WebhookVerificationError => ({ code: 'malformed_header', message });

function headerText(header: VerifyWebhookSignatureOptions['header']): Result<string, WebhookVerificationError> {
  const values: readonly unknown[] = typeof header === 'string' ? [header] : Array.isArray(header) ? header : [];
  if (values.length === 0 || values.every((value) => typeof value === 'string' && value.trim() === '')) {
    return err({ code: 'missing_header', message: 'The request has no Paystate-Signature header' });
  }
  const [only] = values;
  if (values.length > 1) return err(malformed('Paystate-Signature was sent more than once'));
  if (typeof only !== 'string') return err(malformed('Paystate-Signature is not text'));
  return ok(only);
}

function parseHeader(text: string): Result<ParsedHeader, WebhookVerificationError> {
  if (text.length > MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH) {
    return err(malformed(`Paystate-Signature is longer than ${MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH} characters`));
  }
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    const key = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (at < 0 || !KEY.test(key) || value === '') {
      return err(malformed('Paystate-Signature needs comma-separated key=value entries'));
    }
    if (key === 't') {
      if (timestamp !== undefined) return err(malformed('Paystate-Signature has more than one t='));
      if (!TIMESTAMP.test(value)) return err(malformed('The t= of Paystate-Signature is not whole Unix seconds'));
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!V1.test(value)) return err(malformed('A v1= of Paystate-Signature is not 64 hex digits'));
      if (signatures.length === MAX_WEBHOOK_SECRETS) {
        return err(malformed(`Paystate-Signature has more than ${MAX_WEBHOOK_SECRETS} v1= signatures`));
      }
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (a later `v2=`) are for other verifiers: skipped.
  }
  if (timestamp === undefined) return err(malformed('Paystate-Signature has no t='));
  if (signatures.length === 0) return err(malformed('Paystate-Signature has no v1= signature'));
  return ok({ timestamp, signatures });
}

/** A verification's tolerance (default 5 minutes) and time (default now), checked: a RangeError naming the option. */
export function checkWindow(
  toleranceSeconds: unknown,
  now: unknown,
): { readonly tolerance: number; readonly now: number } {
  const tolerance = toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(`toleranceSeconds needs a finite number of seconds from 0 (got ${String(tolerance)})`);
  }
  const time = now ?? systemClock.now();
  if (typeof time !== 'number' || !Number.isFinite(time))
    throw new RangeError(`now needs epoch milliseconds (got ${String(time)})`);
  return { tolerance, now: time };
}

/** Whether one of `expected` is among the `given` signatures of `header`, then whether `timestamp` is in the window. */
export function judgeSignatures(
  expected: readonly Buffer[],
  given: readonly Buffer[],
  header: string,
  timestamp: number,
  { tolerance, now }: ReturnType<typeof checkWindow>,
): Result<void, WebhookVerificationError> {
  let matched = false;
  for (const signature of expected) {
    // Every pair is compared, matched or not: the time taken tells nothing of where they differ.
    for (const each of given) if (timingSafeEqual(each, signature)) matched = true;
  }
  if (!matched) {
    const message = `No v1 signature of ${header} matches the body with the secrets given`;
    return err({ code: 'no_matching_signature', message });
  }
  if (Math.abs(Math.floor(now / 1000) - timestamp) > tolerance) {
    const message = `The signature was made at ${timestamp}, more than ${tolerance} s from now (${Math.floor(now / 1000)})`;
    return err({ code: 'timestamp_out_of_tolerance', message, timestamp });
  }
  return ok(undefined);
}

/**
 * Verifies that paystate signed this body with one of `secrets` within `toleranceSeconds` of `now`, signature
 * before time; answers its time or a `WebhookVerificationError`, never throwing for what a request holds.
 * A RangeError or TypeError for a bad set-up or a payload that is not the raw body.
 */
export function verifyWebhookSignature(
  options: VerifyWebhookSignatureOptions,
): Result<VerifiedWebhookSignature, WebhookVerificationError> {
  const secrets = webhookSecrets(options.secrets, 'webhook verification secrets');
  const payload = payloadData(options.payload);
  const window = checkWindow(options.toleranceSeconds, options.now);
  return headerText(options.header)
    .andThen(parseHeader)
    .andThen(({ timestamp, signatures }) => {
      const expected = secrets.map((secret) => webhookSignature(secret, `${timestamp}.`, payload));
      return judgeSignatures(expected, signatures, 'Paystate-Signature', timestamp, window).map(() => ({ timestamp }));
    });
}
