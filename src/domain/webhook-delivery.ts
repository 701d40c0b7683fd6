/**
 * What the webhook sink (`paystate/webhooks`) promises receivers about delivery: how long it waits
 * for an answer by default, and what each status means for the event. The sink acts on these and
 * the OpenAPI document (`paystate/http`) describes them, from here, so the two cannot drift.
 */

/**
 * How long one webhook call may take by default before it is aborted as a retryable failure: 10 s,
 * the engine's own default for an event sink (`timeouts.eventSinkMs`). A sink's `timeoutMs` changes
 * it; there is always one, so a `publish` without an abort signal cannot wait forever on a receiver
 * that took the connection and never answers.
 */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Whether a receiver's status may be answered differently later: 408 (request timeout), 425 (too
 * early), 429 (too many requests) and every 5xx. Other statuses outside 2xx (3xx, 4xx) will be
 * answered the same way again.
 */
export function isRetryableWebhookStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * What a receiver's status means for the event: `delivered` (2xx); `retried` (408, 425, 429, 5xx:
 * `isRetryableWebhookStatus`), a retryable failure; `refused` (anything else: 3xx, other 4xx), a
 * failure that is not retryable. Either failure leaves the event to be offered again later.
 */
export type WebhookAnswerOutcome = 'delivered' | 'retried' | 'refused';

/** The outcome of a status: the one rule `classifyWebhookAnswer` and the OpenAPI document share. */
export function webhookAnswerOutcome(status: number): WebhookAnswerOutcome {
  if (status >= 200 && status <= 299) return 'delivered';
  return isRetryableWebhookStatus(status) ? 'retried' : 'refused';
}
