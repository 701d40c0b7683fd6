import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '../../src/domain/domain-event.js';
import {
  verifyWebhookSignature,
  type VerifyWebhookSignatureOptions,
  type WebhookVerificationError,
} from './verify-webhook-signature.js';
import type { WebhookEvent } from './webhook-event.js';

/**
 * Why `parseWebhookEvent` gives no event: the signature's `WebhookVerificationError`, or, for a
 * body that verified,
 * - `malformed_payload`: it is not UTF-8 JSON in the shape of `WebhookEvent`;
 * - `unknown_event_type`: an event type this version of paystate does not know (`type`), sent by a
 *   newer one. Answer it with a 2xx: a refused event is offered again and again, and holds up the
 *   later events of its payment.
 */
export type WebhookEventError =
  | WebhookVerificationError
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

/**
 * Verifies a webhook request (`verifyWebhookSignature`, same options) and then reads its body as a
 * `WebhookEvent`. The body is parsed only once its signature verified.
 * @throws RangeError for a bad set-up, as `verifyWebhookSignature`.
 */
export function parseWebhookEvent(options: VerifyWebhookSignatureOptions): Result<WebhookEvent, WebhookEventError> {
  return verifyWebhookSignature(options).andThen((): Result<WebhookEvent, WebhookEventError> => {
    let json: unknown;
    try {
      const text = typeof options.payload === 'string' ? options.payload : utf8.decode(options.payload);
      json = JSON.parse(text);
    } catch {
      return err(malformed('The body is not UTF-8 JSON'));
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
