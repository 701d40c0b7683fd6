/**
 * `paystate/webhooks`: a signed webhook `EventSink` for the engine's domain events, and what a
 * receiver needs to check them (docs/webhooks.md).
 */
export { DEFAULT_WEBHOOK_TIMEOUT_MS, isRetryableWebhookStatus } from '../../src/domain/webhook-delivery.js';
export {
  createWebhookEventSink,
  type WebhookEndpoint,
  type WebhookEndpointChoice,
  type WebhookEventSink,
  type WebhookEventSinkOptions,
  type WebhookFetch,
  type WebhookLookup,
  type WebhookLookupAddress,
  type WebhookSignatureScheme,
} from './webhook-event-sink.js';
export {
  generateStandardWebhookSecret,
  MAX_STANDARD_WEBHOOK_KEY_BYTES,
  MIN_STANDARD_WEBHOOK_KEY_BYTES,
} from './standard-webhook-secret.js';
export {
  verifyStandardWebhookSignature,
  type VerifiedStandardWebhook,
  type VerifyStandardWebhookSignatureOptions,
  type WebhookRequestHeaders,
} from './verify-webhook-signature.js';
export { toWebhookEvent, type WebhookEvent } from '../../src/domain/webhook-event.js';
export {
  DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES,
  MAX_WEBHOOK_PAYLOAD_DEPTH,
  parseWebhookEvent,
  type ParseWebhookEventOptions,
  type WebhookEventError,
  type WebhookEventErrorCode,
} from './parse-webhook-event.js';
export { generateWebhookSecret, MAX_WEBHOOK_SECRETS, MIN_WEBHOOK_SECRET_LENGTH } from './webhook-secrets.js';
export {
  DEFAULT_WEBHOOK_USER_AGENT,
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_IDEMPOTENCY_KEY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/domain/webhook-headers.js';
export {
  createStandardWebhookHeaders,
  createWebhookSignatureHeader,
  type StandardWebhookHeadersInput,
  type WebhookPayload,
  type WebhookSignatureInput,
  WEBHOOK_SIGNATURE_SCHEMES,
} from './webhook-signature.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH,
  verifyWebhookSignature,
  type VerifiedWebhookSignature,
  type VerifyWebhookSignatureOptions,
  type WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './verify-webhook-signature.js';
export { MAX_WEBHOOK_URL_LENGTH } from './webhook-url.js';
