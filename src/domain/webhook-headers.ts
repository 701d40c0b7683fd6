/**
 * The headers of a webhook request (docs/webhooks.md, "The request"): their names, and the form of
 * the event id that two of them carry: part of paystate's contract with receivers. The sink
 * (`paystate/webhooks`) sets them from here and the OpenAPI document (`paystate/http`) describes
 * them from here, so the two cannot drift.
 */

/** The header that carries the signature: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Paystate-Signature';

/** The header that carries the event id on every webhook request; the same id is in the body. */
export const WEBHOOK_EVENT_ID_HEADER = 'Paystate-Event-Id';

/** The header that carries the event type on every webhook request; the same type is in the body. */
export const WEBHOOK_EVENT_TYPE_HEADER = 'Paystate-Event-Type';

/**
 * The header for generic idempotency middleware on the receiver's side. Its value is the event id,
 * exactly as `Paystate-Event-Id` and the body's `id` carry it: `evt_` and 32 lowercase hex digits,
 * bare (not quoted), the same on every delivery of the event.
 */
export const WEBHOOK_IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The `User-Agent` of webhook requests unless `userAgent` says otherwise (`1`: the wire format). */
export const DEFAULT_WEBHOOK_USER_AGENT = 'paystate-webhooks/1';

/**
 * An event id as the engine makes it (`DomainEvent.id`) and the sink sends it, in the body and in
 * `Paystate-Event-Id` and `Idempotency-Key`: `evt_` and 32 lowercase hex digits, 36 characters.
 */
export const WEBHOOK_EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;

/** The `standard-webhooks` scheme's message id header: the event id, as `Paystate-Event-Id`. */
export const STANDARD_WEBHOOK_ID_HEADER = 'webhook-id';

/** The `standard-webhooks` scheme's time header: whole Unix seconds. */
export const STANDARD_WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';

/** The `standard-webhooks` scheme's signature header: `v1,<base64>[ v1,<base64>…]`. */
export const STANDARD_WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';
