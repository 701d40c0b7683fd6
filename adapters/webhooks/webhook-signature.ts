import { createHmac } from 'node:crypto';
import { webhookSecrets } from './webhook-secrets.js';

/**
 * The raw body of a webhook request, as sent: its text, or its bytes (a `Buffer`, a `Uint8Array`,
 * or the `ArrayBuffer` of `await request.arrayBuffer()`).
 */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

/**
 * The payload as text or bytes.
 * @throws TypeError for anything else, such as a body a JSON middleware already parsed: the
 *   signature is over the raw bytes, which that no longer is.
 */
export function payloadData(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  throw new TypeError('webhook payload needs the raw body, as a string or bytes (express.raw(), not express.json())');
}

/**
 * The `v1` signature of a payload: the HMAC-SHA256, keyed with the secret's UTF-8 bytes, of the
 * timestamp in decimal, a dot, and the raw body, as raw bytes.
 */
export function webhookSignature(secret: string, timestamp: number, payload: WebhookPayload): Buffer {
  const data = payloadData(payload);
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8');
  return (typeof data === 'string' ? hmac.update(data, 'utf8') : hmac.update(data)).digest();
}

/** What `createWebhookSignatureHeader` signs, with what, and when. */
export interface WebhookSignatureInput {
  /** The raw body, exactly as it is sent. */
  readonly payload: WebhookPayload;
  /** One secret, or several while one is rotated: each gives a `v1=` entry. */
  readonly secrets: string | readonly string[];
  /** When it is signed, in whole seconds since the Unix epoch (`t=`). */
  readonly timestamp: number;
}

/**
 * The `Paystate-Signature` of a payload, `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<payload>">` per secret,
 * for signed test requests. A RangeError for no or a short secret or a bad timestamp (never naming a secret).
 */
export function createWebhookSignatureHeader(input: WebhookSignatureInput): string {
  const secrets = webhookSecrets(input.secrets, 'webhook signature secrets');
  const { timestamp } = input;
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`webhook signature timestamp needs whole seconds from 0 (got ${String(timestamp)})`);
  }
  return signatureHeader(secrets, timestamp, input.payload);
}

/** `createWebhookSignatureHeader` for secrets already checked. */
export function signatureHeader(secrets: readonly string[], timestamp: number, payload: WebhookPayload): string {
  const entries = secrets.map((secret) => `v1=${webhookSignature(secret, timestamp, payload).toString('hex')}`);
  return [`t=${timestamp}`, ...entries].join(',');
}
