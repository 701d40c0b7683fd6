import { createHmac } from 'node:crypto';
import { checkStandardWebhookSecrets } from './standard-webhook-secret.js';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/domain/webhook-headers.js';
import { payloadData, type WebhookPayload } from './webhook-signature.js';

/** The Standard Webhooks `v1` signature: HMAC-SHA256, keyed with the secret's decoded bytes, of `<id>.<timestamp>.<body>`. */
export function standardWebhookSignature(
  key: Uint8Array,
  id: string,
  timestamp: number,
  payload: WebhookPayload,
): Buffer {
  const data = payloadData(payload);
  const hmac = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8');
  return (typeof data === 'string' ? hmac.update(data, 'utf8') : hmac.update(data)).digest();
}

/** The three Standard Webhooks headers for keys already checked: one `v1,<base64>` per key, space-separated. */
export function standardSignatureHeaders(
  keys: readonly Uint8Array[],
  id: string,
  timestamp: number,
  payload: WebhookPayload,
): Record<string, string> {
  const signatures = keys.map(
    (key) => `v1,${standardWebhookSignature(key, id, timestamp, payload).toString('base64')}`,
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
