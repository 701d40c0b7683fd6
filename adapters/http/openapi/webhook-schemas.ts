import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '../../../src/domain/domain-event.js';
import { paymentSchema } from '../../../src/schemas/payment-response.js';
import { WEBHOOK_EVENT_ID_PATTERN } from '../../../src/domain/webhook-headers.js';

/**
 * The zod schemas of what the webhook sink (`paystate/webhooks`) sends: the body of a webhook
 * request, as `toWebhookEvent` makes it, and the headers the sink sets. The document's `webhooks`
 * are generated from these, and the tests check real requests of the sink against them.
 */

/** The body of a webhook request (`WebhookEvent`, snake_case like the v1 API). */
export const webhookEventSchema = z.object({
  id: z.string().regex(WEBHOOK_EVENT_ID_PATTERN),
  type: z.enum(DOMAIN_EVENT_TYPES),
  created: z.iso.datetime({ precision: 3 }),
  partner_id: z.string().min(1),
  profile_id: z.string().min(1),
  data: z.object({ payment: paymentSchema }),
});

/** What a webhook of one event type adds to `webhookEventSchema`: that type (combined in `allOf`). */
export function webhookEventNarrowingSchema(type: (typeof DOMAIN_EVENT_TYPES)[number]) {
  return z.looseObject({ type: z.literal(type) });
}

/** The request headers the sink sets, by name (`Content-Type` is the request body's media type). */
export const webhookHeaderSchemas = {
  signature: z.string().regex(/^t=[0-9]{1,15}(?:,v1=[0-9a-f]{64})+$/),
  eventId: z.string().regex(WEBHOOK_EVENT_ID_PATTERN),
  eventType: (type: (typeof DOMAIN_EVENT_TYPES)[number]) => z.literal(type),
  userAgent: z.string().regex(/^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/),
} as const;
