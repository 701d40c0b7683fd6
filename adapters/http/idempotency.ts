import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../../src/ports/clock.js';
import type { IdempotencyBegin, IdempotencyStore, IdempotencyStoreError } from '../../src/ports/idempotency-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import type { Logger } from '../../src/ports/logger.js';
import { binOf } from '../../src/domain/card.js';
import { urlContainsCardNumber } from '../../src/domain/card-number.js';
import { CARD_NUMBER_IN_TEXT } from '../../src/schemas/text.js';
import { withoutCardNumber } from '../../src/schemas/browser-data.js';
import { canonicalJson } from './canonical-json.js';
import type { HttpAnswer } from './http-answer.js';
import { problem, problemAnswer, RETRY_LATER, type Problem } from './problem-details.js';
import { callStoreWithDeadline, type StoreThrew, type StoreTimedOut } from './store-deadline.js';

/** How long a completed answer is replayed: 24 hours (docs/http-api.md, Idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long after its start an unsettled request is presumed dead, so that a retry takes its key
 * over: 5 minutes, longer than the engine's longest create (about 3; see embedding-http.md).
 */
export const IDEMPOTENCY_STALE_AFTER_MS = 5 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Header added to a replayed answer. */
export const REPLAYED_HEADER = 'idempotency-replayed';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The `Idempotency-Key` header: null when absent; 1 to 255 printable ASCII characters holding no
 * card number, as it is or percent-encoded (`order%204242…`: the key is stored), else 400.
 */
export function idempotencyKeyOf(header: string | null): Result<string | null, Problem> {
  if (header === null) return ok(null);
  const printable = header.length >= 1 && header.length <= MAX_IDEMPOTENCY_KEY_LENGTH && PRINTABLE_ASCII.test(header);
  if (printable && !urlContainsCardNumber(header)) return ok(header);
  const message = printable
    ? CARD_NUMBER_IN_TEXT
    : `Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
  return err(
    problem('validation_failed', 'The Idempotency-Key header is invalid', {
      errors: [{ path: 'Idempotency-Key', message }],
    }),
  );
}

const encoder = new TextEncoder();

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A card number no further than the payment record shows it: its first six digits, or fewer where
 * the record keeps fewer (`binOf`: 2 to 5 of a number under 16 digits), and its last four (or how
 * many digits a shorter one has).
 */
function cardNumberSummary(number: unknown): string {
  const digits = typeof number === 'string' || typeof number === 'number' ? String(number).replace(/\D/g, '') : '';
  if (digits.length < 12) return `${digits.length} digits`;
  return `${digits.slice(0, Math.min(6, binOf(digits).length))}…${digits.slice(-4)}`;
}

/**
 * Every string of a parsed body with a card number in it, its digits masked (`withoutCardNumber`),
 * as the payment keeps the browser's headers; member names and other values as they are.
 */
function withCardNumbersMasked(value: unknown): unknown {
  if (typeof value === 'string') return withoutCardNumber(value);
  if (Array.isArray(value)) return value.map(withCardNumbersMasked);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withCardNumbersMasked(item)]));
}

/**
 * The body as the fingerprint reads it: the card number cut to what the record shows, no CVC,
 * card numbers elsewhere masked (why: http-api.md, "Idempotency").
 */
function withoutCardSecrets(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body['creditcard'])) return withCardNumbersMasked(body);
  const { cvc: _cvc, number, ...card } = body['creditcard'];
  const summarized = {
    ...body,
    creditcard: { ...card, ...(number !== undefined ? { number: cardNumberSummary(number) } : {}) },
  };
  return withCardNumbersMasked(summarized);
}

/**
 * SHA-256 (hex) of method, path and the canonical JSON of the body without its card secrets
 * (`withoutCardSecrets`): what "the same request" means.
 */
export async function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  const bytes = encoder.encode(`${method} ${path}\n${canonicalJson(withoutCardSecrets(body))}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export interface IdempotencyDeps {
  readonly store: IdempotencyStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly ttlMs: number;
  readonly staleAfterMs: number;
  /** The deadline of each store call (`storeTimeoutMs`). */
  readonly timeoutMs: number;
  readonly problemTypeBase: string;
  /**
   * A stored answer as a replay sends it, when what is stored differs from what was sent (see
   * `IdempotentOutcome.stored`): e.g. a hosted page link put back. Default: as stored.
   */
  readonly replay?: (stored: HttpAnswer) => HttpAnswer;
}

/** What a request that owns a key runs with: the id it reserved, and whether it took over a stale attempt. */
export interface IdempotentStart {
  /** The id reserved with the key; on a takeover, the stale attempt's. Null when the store holds none. */
  readonly reservedId: string | null;
  /** A stale attempt (crashed, or cut off from the store) held the key: it may have created `reservedId`. */
  readonly takeover: boolean;
}

/** What an idempotent operation answered, and what becomes of its key. */
export interface IdempotentOutcome {
  readonly answer: HttpAnswer;
  /**
   * `complete`: the answer is stored and replayed; `release`: nothing happened, the key is forgotten;
   * `leave`: unknown whether something was made, the key stays in progress until stale.
   */
  readonly settle: 'complete' | 'release' | 'leave';
  /**
   * What the store keeps of `answer` on `complete`, when it must not keep it as sent (a working
   * hosted page link left out, for `IdempotencyDeps.replay` to put back): called only when there is
   * a key to store it under. Default `answer`.
   */
  readonly stored?: () => HttpAnswer;
}

/** Calls the store with the deadline `timeoutMs` (`callStoreWithDeadline`); a time-out is logged by the caller, with what it means for the key. */
function callStore<T>(
  deps: Pick<IdempotencyDeps, 'logger' | 'timeoutMs'>,
  call: 'begin' | 'complete' | 'release',
  run: () => PortResult<T, IdempotencyStoreError>,
  late?: (result: Result<T, IdempotencyStoreError>) => void,
): Promise<Result<T, IdempotencyStoreError | StoreTimedOut | StoreThrew>> {
  return callStoreWithDeadline(deps.logger, 'idempotency store', call, deps.timeoutMs, run, late);
}

/**
 * A `begin` that answered after its request gave up (503): a fresh key is released, a taken-over
 * one left in progress, as its payment may exist (embedding-http.md, `storeTimeoutMs`).
 */
function releaseLateStart(
  deps: IdempotencyDeps,
  owner: { readonly clientId: string; readonly key: string; readonly startedAt: number },
  late: Result<IdempotencyBegin, IdempotencyStoreError>,
): void {
  if (late.isErr() || late.value.kind !== 'started') return;
  if (late.value.takeover) {
    deps.logger.warn(
      { clientId: owner.clientId, reservedId: late.value.reservedId },
      'an idempotency key taken over after its begin timed out stays in progress: a retry takes it over once it is stale',
    );
    return;
  }
  void callStore(deps, 'release', () => deps.store.release(owner)).then((released) => {
    if (released.isErr()) {
      deps.logger.warn(
        { clientId: owner.clientId, code: released.error.code },
        'could not release an idempotency key whose begin answered after its deadline; retries get 409 until it is stale',
      );
    }
  });
}

/**
 * Runs `operation` at most once per (client, key): a same-body retry gets the stored answer
 * (`Idempotency-Replayed: true`), another body 422, one while the first runs 409; a stale first
 * request is taken over (`takeover: true`, its reserved id).
 */
export async function runIdempotent(
  deps: IdempotencyDeps,
  ref: { readonly clientId: string; readonly key: string; readonly fingerprint: string; readonly reservedId: string },
  operation: (start: IdempotentStart) => Promise<IdempotentOutcome>,
): Promise<HttpAnswer> {
  const keyRef = { clientId: ref.clientId, key: ref.key };
  const answerOf = (value: Problem) => problemAnswer(value, deps.problemTypeBase);
  const now = deps.clock.now();
  const begun = await callStore(
    deps,
    'begin',
    () =>
      deps.store.begin({
        ...keyRef,
        fingerprint: ref.fingerprint,
        now,
        ttlMs: deps.ttlMs,
        reservedId: ref.reservedId,
        staleAfterMs: deps.staleAfterMs,
      }),
    (late) => releaseLateStart(deps, { ...keyRef, startedAt: now }, late),
  );
  if (begun.isErr()) {
    deps.logger.error({ code: begun.error.code, message: begun.error.message }, 'idempotency store unavailable');
    return answerOf(
      problem('unavailable', 'The idempotency store is unavailable; retry later', {
        headers: RETRY_LATER,
      }),
    );
  }
  const begin = begun.value;
  switch (begin.kind) {
    case 'mismatch':
      return answerOf(
        problem('idempotency_key_reused', 'This Idempotency-Key was already used with a different request'),
      );
    case 'in_progress':
      return answerOf(
        problem('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed', {
          headers: RETRY_LATER,
        }),
      );
    case 'completed': {
      const stored = deps.replay?.(begin.response) ?? begin.response;
      return { status: stored.status, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' }, body: stored.body };
    }
    case 'started':
      break;
  }
  if (begin.takeover) {
    deps.logger.warn(
      { clientId: ref.clientId, reservedId: begin.reservedId },
      'took over an idempotency key whose request stopped without an answer',
    );
  }

  let outcome: IdempotentOutcome;
  try {
    outcome = await operation({ reservedId: begin.reservedId, takeover: begin.takeover });
  } catch (error) {
    // A bug after the key was taken: whatever happened is not run a second time.
    deps.logger.error({ error }, 'unexpected error in an idempotent request');
    outcome = { answer: answerOf(problem('internal_error', 'An unexpected error occurred')), settle: 'complete' };
  }
  // `startedAt`: only while this request still owns the key (no retry took it over meanwhile).
  const owner = { ...keyRef, startedAt: now };
  if (outcome.settle === 'leave') {
    deps.logger.warn(
      { clientId: ref.clientId, reservedId: begin.reservedId, status: outcome.answer.status },
      'idempotency key left in progress: a retry takes it over once it is stale',
    );
    return outcome.answer;
  }
  const settled =
    outcome.settle === 'complete'
      ? await callStore(deps, 'complete', () =>
          deps.store.complete({ ...owner, response: outcome.stored?.() ?? outcome.answer }),
        )
      : await callStore(deps, 'release', () => deps.store.release(owner));
  if (settled.isErr()) {
    deps.logger.error(
      { code: settled.error.code, message: settled.error.message, settle: outcome.settle },
      'could not settle an idempotency key; retries get 409 until it is stale',
    );
  }
  return outcome.answer;
}
