import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '../../src/domain/domain-event.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import {
  verifyWebhookSignature,
  type VerifyWebhookSignatureOptions,
  type WebhookVerificationError,
} from './verify-webhook-signature.js';
import { payloadData } from './webhook-signature.js';

/** The largest body `parseWebhookEvent` reads by default: 1 MiB (a payment is a few kilobytes). */
export const DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES = 1024 * 1024;

/** The deepest nesting of objects and arrays `parseWebhookEvent` takes: 32 (an event has about 6). */
export const MAX_WEBHOOK_PAYLOAD_DEPTH = 32;

/** What `parseWebhookEvent` checks: those of `verifyWebhookSignature`, and a size limit. */
export interface ParseWebhookEventOptions extends VerifyWebhookSignatureOptions {
  /**
   * The most bytes the body may have, checked before anything else (a larger one is
   * `payload_too_large`, and is neither hashed nor parsed). Default
   * `DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES` (1 MiB).
   */
  readonly maxPayloadBytes?: number;
}

/**
 * Why `parseWebhookEvent` gives no event (docs/webhooks.md#verifying): `payload_too_large` (checked first),
 * the signature's `WebhookVerificationError`, then `malformed_payload` or `unknown_event_type` (answer a 2xx).
 */
export type WebhookEventError =
  | WebhookVerificationError
  | { readonly code: 'payload_too_large'; readonly message: string; readonly maxPayloadBytes: number }
  | { readonly code: 'malformed_payload'; readonly message: string }
  | { readonly code: 'unknown_event_type'; readonly message: string; readonly type: string };

/** The stable `code` of a `WebhookEventError`. */
export type WebhookEventErrorCode = WebhookEventError['code'];

// The envelope only, keeping every field (`looseObject`): the body is signed, so what paystate put
// in the payment is taken as sent, and fields added later reach the receiver.
const envelopeSchema = z.looseObject({
  id: z.string().regex(/^evt_[0-9a-f]+$/),
  type: z.string(),
  created: z.string(),
  partner_id: z.string(),
  profile_id: z.string(),
  data: z.looseObject({ payment: z.looseObject({ id: z.string(), state: z.string() }) }),
});

const known: ReadonlySet<string> = new Set(DOMAIN_EVENT_TYPES);
const utf8 = new TextDecoder('utf-8', { fatal: true });

const malformed = (message: string): WebhookEventError => ({ code: 'malformed_payload', message });

/** Whether JSON text nests objects and arrays deeper than `max`, counted without parsing it. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c)
        at++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

class ProtoKey extends Error {}

/** Refuses a `__proto__` key at any depth, however it was escaped in the text. */
function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new ProtoKey();
  return value;
}

function checkMaxBytes(maxPayloadBytes: unknown): number {
  if (typeof maxPayloadBytes !== 'number' || !Number.isSafeInteger(maxPayloadBytes) || maxPayloadBytes < 1) {
    throw new RangeError(`maxPayloadBytes needs a whole number of bytes from 1 (got ${String(maxPayloadBytes)})`);
  }
  return maxPayloadBytes;
}

/**
 * Verifies a webhook request (`verifyWebhookSignature`, same options), then reads its body as a `WebhookEvent`,
 * parsed only once verified and within `maxPayloadBytes`. A RangeError or TypeError for a bad set-up or payload.
 */
export function parseWebhookEvent(options: ParseWebhookEventOptions): Result<WebhookEvent, WebhookEventError> {
  const maxBytes = checkMaxBytes(options.maxPayloadBytes ?? DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES);
  const payload = payloadData(options.payload);
  const size = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.byteLength;
  if (size > maxBytes) {
    return err({
      code: 'payload_too_large',
      message: `The body is larger than ${maxBytes} bytes (maxPayloadBytes)`,
      maxPayloadBytes: maxBytes,
    });
  }
  return verifyWebhookSignature({ ...options, payload }).andThen((): Result<WebhookEvent, WebhookEventError> => {
    let text: string;
    try {
      text = typeof payload === 'string' ? payload : utf8.decode(payload);
    } catch {
      return err(malformed('The body is not UTF-8 JSON'));
    }
    if (nestsDeeperThan(text, MAX_WEBHOOK_PAYLOAD_DEPTH)) {
      return err(malformed(`The body nests deeper than ${MAX_WEBHOOK_PAYLOAD_DEPTH} levels`));
    }
    let json: unknown;
    try {
      json = JSON.parse(text, refuseProtoKey);
    } catch (error) {
      return err(malformed(error instanceof ProtoKey ? 'The body has a __proto__ key' : 'The body is not UTF-8 JSON'));
    }
    const parsed = envelopeSchema.safeParse(json);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.') || '(body)'))];
      return err(malformed(`The body is not a webhook event (${fields.join(', ')})`));
    }
    const { type } = parsed.data;
    if (!known.has(type)) {
      return err({
        code: 'unknown_event_type',
        message: 'The event type is not one this version of paystate knows',
        type,
      });
    }
    return ok(json as WebhookEvent);
  });
}
