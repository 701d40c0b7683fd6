import { err, ok, type Result } from 'neverthrow';
import { webhookAnswerOutcome } from '../../src/domain/webhook-delivery.js';
import type { EventSinkError } from '../../src/ports/event-sink.js';
import type { CallAbortCause } from './call-signal.js';

const failure = (message: string, retryable: boolean, notSent?: true): EventSinkError =>
  notSent === undefined
    ? { code: 'unavailable', message, retryable }
    : { code: 'unavailable', message, retryable, notSent };

/**
 * What an answer means: 2xx delivered; 408, 425, 429, 5xx retryable; 3xx (never followed; a browser
 * `fetch`'s status 0) and other 4xx refused, not retryable. Names the host and the status only.
 */
export function classifyWebhookAnswer(
  answer: { readonly status: number; readonly type?: string },
  host: string,
): Result<void, EventSinkError> {
  const { status } = answer;
  const outcome = webhookAnswerOutcome(status);
  if (outcome === 'delivered') return ok(undefined);
  if (answer.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
    const shown = status === 0 ? 'a redirect' : String(status);
    return err(failure(`Webhook endpoint ${host} answered ${shown}: redirects are not followed`, false));
  }
  return err(failure(`Webhook endpoint ${host} answered ${status}`, outcome === 'retried'));
}

/** A network error code node gives for a request that never left (the connection was refused, no such host). */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/** The system error code under a `fetch` rejection (`TypeError: fetch failed`, cause `ECONNREFUSED`), if any. */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && ERROR_CODE.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A call that got no answer, always retryable: aborted by the engine, past its own time-out, or a
 * network failure (its system error code at most, never the error's text, which may quote the
 * URL). `notSent` when node says the connection was refused or the host name did not resolve.
 */
export function classifyWebhookFailure(
  error: unknown,
  host: string,
  cause: CallAbortCause | null,
  timeoutMs: number,
): EventSinkError {
  if (cause === 'timeout') return failure(`Webhook endpoint ${host} did not answer within ${timeoutMs} ms`, true);
  if (cause === 'aborted') return failure(`Webhook call to ${host} was aborted: the engine stopped waiting`, true);
  const code = errorCode(error);
  return failure(
    `Webhook call to ${host} failed: ${code ?? 'network error'}`,
    true,
    code !== undefined && NOT_SENT_CODES.has(code) ? true : undefined,
  );
}
