import { createHmac } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/domain/webhook-headers.js';
import { checkStandardWebhookSecrets } from './standard-webhook-secret.js';
import { checkWebhookSecrets, webhookSecrets } from './webhook-secrets.js';

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
 * A `v1` signature, as raw bytes: the HMAC-SHA256 of `prefix` then the raw body. Paystate's prefix is
 * `<t>.`, keyed with the secret's UTF-8 bytes; Standard Webhooks' is `<id>.<t>.`, keyed with its decoded key.
 */
export function webhookSignature(key: string | Uint8Array, prefix: string, payload: WebhookPayload): Buffer {
  const data = payloadData(payload);
  const hmac = createHmac('sha256', key).update(prefix, 'utf8');
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
function signatureHeader(secrets: readonly string[], timestamp: number, payload: WebhookPayload): string {
  const entries = secrets.map((secret) => `v1=${webhookSignature(secret, `${timestamp}.`, payload).toString('hex')}`);
  return [`t=${timestamp}`, ...entries].join(',');
}

/** The three Standard Webhooks headers for keys already checked: one `v1,<base64>` per key, space-separated. */
function standardSignatureHeaders(
  keys: readonly Uint8Array[],
  id: string,
  timestamp: number,
  payload: WebhookPayload,
): Record<string, string> {
  const signatures = keys.map(
    (key) => `v1,${webhookSignature(key, `${id}.${timestamp}.`, payload).toString('base64')}`,
  );
  return {
    [STANDARD_WEBHOOK_ID_HEADER]: id,
    [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_WEBHOOK_SIGNATURE_HEADER]: signatures.join(' '),
  };
}

/** What `createStandardWebhookHeaders` signs, with what, and when. */
export interface StandardWebhookHeadersInput {
  /** The raw body, exactly as it is sent. */
  readonly payload: WebhookPayload;
  /** The message id (`webhook-id`): the event id, the same on every delivery. */
  readonly id: string;
  /** One `whsec_<base64>` secret, or several while one is rotated. */
  readonly secrets: string | readonly string[];
  /** When it is signed, in whole seconds since the Unix epoch. */
  readonly timestamp: number;
}

/** Printable ASCII without a full stop or space (the id is part of what is signed, `.` separated). */
const MESSAGE_ID = /^[\x21-\x2d\x2f-\x7e]{1,256}$/;

/**
 * The `standard-webhooks` headers as the sink sends them, for signed test requests. A RangeError for a
 * bad secret, an id that is empty or holds `.` or a space, or a timestamp not whole seconds from 0.
 */
export function createStandardWebhookHeaders(input: StandardWebhookHeadersInput): Record<string, string> {
  const keys = checkStandardWebhookSecrets(input.secrets);
  if (keys.isErr()) throw new RangeError(`standard webhook secrets: ${keys.error}`);
  if (typeof input.id !== 'string' || !MESSAGE_ID.test(input.id)) {
    throw new RangeError('standard webhook id needs 1 to 256 printable characters, without "." or spaces');
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new RangeError(`standard webhook timestamp needs whole seconds from 0 (got ${String(input.timestamp)})`);
  }
  return standardSignatureHeaders(keys.value, input.id, input.timestamp, input.payload);
}

/**
 * How webhook requests are signed (docs/webhooks.md#signature-schemes-and-secret-formats): `paystate`
 * (the default, any secret of 32+ characters) or `standard-webhooks` (a `whsec_<base64>` secret).
 */
export type WebhookSignatureScheme = 'paystate' | 'standard-webhooks';

/** The schemes, the default first. */
export const WEBHOOK_SIGNATURE_SCHEMES: readonly WebhookSignatureScheme[] = Object.freeze([
  'paystate',
  'standard-webhooks',
]);

/** The signature headers of one request, given the event id, the time (Unix seconds) and the body. */
export type WebhookSigner = (id: string, timestamp: number, body: string) => Record<string, string>;

/** The scheme, or why it is refused. */
export function checkWebhookScheme(scheme: unknown): Result<WebhookSignatureScheme, string> {
  return (WEBHOOK_SIGNATURE_SCHEMES as readonly unknown[]).includes(scheme)
    ? ok(scheme as WebhookSignatureScheme)
    : err(`scheme needs one of ${WEBHOOK_SIGNATURE_SCHEMES.join(', ')} (got ${String(scheme)})`);
}

/** A signer with `secrets` under `scheme`, or why the secrets are refused for it (never repeating one). */
export function webhookSigner(scheme: WebhookSignatureScheme, secrets: unknown): Result<WebhookSigner, string> {
  if (scheme === 'standard-webhooks') {
    return checkStandardWebhookSecrets(secrets).map(
      (keys): WebhookSigner =>
        (id, timestamp, body) =>
          standardSignatureHeaders(keys, id, timestamp, body),
    );
  }
  return checkWebhookSecrets(secrets).map((checked): WebhookSigner => (_id, timestamp, body) => ({
    [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(checked, timestamp, body),
  }));
}
