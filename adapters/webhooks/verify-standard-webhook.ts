import { err, ok, type Result } from 'neverthrow';
import { checkStandardWebhookSecrets } from './standard-webhook-secret.js';
import {
  checkWindow,
  judgeSignatures,
  MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH,
  type WebhookVerificationError,
} from './verify-webhook-signature.js';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/domain/webhook-headers.js';
import { MAX_WEBHOOK_SECRETS } from './webhook-secrets.js';
import { payloadData, webhookSignature, type WebhookPayload } from './webhook-signature.js';

/** Request headers as a framework gives them: node's `req.headers`, a fetch `Headers`, a plain record. */
export type WebhookRequestHeaders =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What `verifyStandardWebhookSignature` checks. */
export interface VerifyStandardWebhookSignatureOptions {
  /** The raw body as received, as for `verifyWebhookSignature`. */
  readonly payload: WebhookPayload;
  /** The request's headers: `webhook-id`, `webhook-timestamp` and `webhook-signature` are read (any case). */
  readonly headers: WebhookRequestHeaders;
  /** The endpoint's `whsec_<base64>` secret, or several while one is rotated. */
  readonly secrets: string | readonly string[];
  /** How far the timestamp may be from `now`, either way, in seconds. Default 300. */
  readonly toleranceSeconds?: number;
  /** The receiver's time in epoch milliseconds. Default: the system clock. */
  readonly now?: number;
}

/** A Standard Webhooks request that verified: its message id (the event id) and time (Unix seconds). */
export interface VerifiedStandardWebhook {
  readonly id: string;
  readonly timestamp: number;
}

const TIMESTAMP = /^\d{1,15}$/;
const V1 = /^[A-Za-z0-9+/]{43}=$/;
const MESSAGE_ID = /^[\x21-\x7e]{1,256}$/;

const malformed = (message: string): WebhookVerificationError => ({ code: 'malformed_header', message });

function headerValue(headers: WebhookRequestHeaders, name: string): unknown {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Readonly<Record<string, unknown>>;
  const key = Object.keys(record).find((given) => given.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

interface Parsed {
  readonly id: string;
  readonly timestamp: number;
  readonly signatures: readonly Buffer[];
}

function parseHeaders(headers: WebhookRequestHeaders): Result<Parsed, WebhookVerificationError> {
  const values: string[] = [];
  for (const name of [
    STANDARD_WEBHOOK_ID_HEADER,
    STANDARD_WEBHOOK_TIMESTAMP_HEADER,
    STANDARD_WEBHOOK_SIGNATURE_HEADER,
  ]) {
    const value = headerValue(headers, name);
    if (value === undefined || value === null || value === '') {
      return err({ code: 'missing_header', message: `The request has no ${name} header` });
    }
    if (typeof value !== 'string') return err(malformed(`${name} was sent more than once, or is not text`));
    if (value.length > MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH) {
      return err(malformed(`${name} is longer than ${MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH} characters`));
    }
    values.push(value.trim());
  }
  const [id = '', time = '', signature = ''] = values;
  if (!MESSAGE_ID.test(id)) return err(malformed('webhook-id is not 1 to 256 printable characters'));
  if (!TIMESTAMP.test(time)) return err(malformed('webhook-timestamp is not whole Unix seconds'));
  const signatures: Buffer[] = [];
  for (const entry of signature.split(' ').filter((part) => part !== '')) {
    const comma = entry.indexOf(',');
    if (comma < 1) return err(malformed('webhook-signature needs space-separated <version>,<signature> entries'));
    if (entry.slice(0, comma) !== 'v1') continue; // another scheme (v1a): for other verifiers
    const value = entry.slice(comma + 1);
    if (!V1.test(value)) return err(malformed('A v1 signature of webhook-signature is not 32 bytes of base64'));
    if (signatures.length === MAX_WEBHOOK_SECRETS) {
      return err(malformed(`webhook-signature has more than ${MAX_WEBHOOK_SECRETS} v1 signatures`));
    }
    signatures.push(Buffer.from(value, 'base64'));
  }
  if (signatures.length === 0) return err(malformed('webhook-signature has no v1 signature'));
  return ok({ id, timestamp: Number(time), signatures });
}

/**
 * Verifies a `standard-webhooks` request as `verifyWebhookSignature` does the default scheme; never throws
 * for what a request holds, but a RangeError or TypeError for a bad set-up or a payload that is not the raw body.
 */
export function verifyStandardWebhookSignature(
  options: VerifyStandardWebhookSignatureOptions,
): Result<VerifiedStandardWebhook, WebhookVerificationError> {
  const keys = checkStandardWebhookSecrets(options.secrets);
  if (keys.isErr()) throw new RangeError(`standard webhook verification secrets: ${keys.error}`);
  const payload = payloadData(options.payload);
  const window = checkWindow(options.toleranceSeconds, options.now);
  return parseHeaders(options.headers).andThen(({ id, timestamp, signatures }) => {
    const expected = keys.value.map((key) => webhookSignature(key, `${id}.${timestamp}.`, payload));
    return judgeSignatures(expected, signatures, 'webhook-signature', timestamp, window).map(() => ({ id, timestamp }));
  });
}
