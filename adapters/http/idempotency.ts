import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../../src/ports/clock.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { Logger } from '../../src/ports/logger.js';
import { canonicalJson } from './canonical-json.js';
import type { HttpAnswer } from './http-answer.js';
import { problem, problemAnswer, RETRY_AFTER_SECONDS, type Problem } from './problem-details.js';

/** How long a completed answer is replayed: 24 hours (decisions.md section 6). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Header added to a replayed answer. */
export const REPLAYED_HEADER = 'idempotency-replayed';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The `Idempotency-Key` header: null when absent; 1 to 255 printable ASCII characters, else 400. */
export function idempotencyKeyOf(header: string | null): Result<string | null, Problem> {
  if (header === null) return ok(null);
  if (header.length >= 1 && header.length <= MAX_IDEMPOTENCY_KEY_LENGTH && PRINTABLE_ASCII.test(header)) {
    return ok(header);
  }
  return err(
    problem('validation_failed', 'The Idempotency-Key header is invalid', {
      errors: [
        {
          path: 'Idempotency-Key',
          message: `Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
        },
      ],
    }),
  );
}

const encoder = new TextEncoder();

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A card number as the payment record keeps it: first six and last four digits (or how many digits a short one has). */
function cardNumberSummary(number: unknown): string {
  const digits = typeof number === 'string' || typeof number === 'number' ? String(number).replace(/\D/g, '') : '';
  return digits.length >= 12 ? `${digits.slice(0, 6)}…${digits.slice(-4)}` : `${digits.length} digits`;
}

/**
 * The body as the fingerprint reads it: `creditcard.number` cut to its first six and last four
 * digits and `creditcard.cvc` left out. A fingerprint is stored (in Postgres too); an unkeyed hash
 * of the whole card could be reversed by trying the few digits and the CVC that the payment record
 * does not show, since the record holds everything else the body held. So a retry under the same
 * key with another CVC, or another card of the same first six and last four digits, counts as the
 * same request (and gets the first answer), where any other difference gets 422.
 */
function withoutCardSecrets(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body['creditcard'])) return body;
  const { cvc: _cvc, number, ...card } = body['creditcard'];
  return { ...body, creditcard: { ...card, ...(number !== undefined ? { number: cardNumberSummary(number) } : {}) } };
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
  readonly problemTypeBase: string;
}

/** What an idempotent operation answered, and whether that answer is kept for replay. */
export interface IdempotentOutcome {
  readonly answer: HttpAnswer;
  /** False when the request did nothing (e.g. failed validation): the key is released, not stored. */
  readonly keep: boolean;
}

/**
 * Runs `operation` at most once per (client, key): the first request owns the key; a retry
 * with the same fingerprint gets the stored answer byte for byte plus `Idempotency-Replayed:
 * true`, a different fingerprint 422, and a retry while the first runs 409.
 */
export async function runIdempotent(
  deps: IdempotencyDeps,
  ref: { readonly clientId: string; readonly key: string; readonly fingerprint: string },
  operation: () => Promise<IdempotentOutcome>,
): Promise<HttpAnswer> {
  const keyRef = { clientId: ref.clientId, key: ref.key };
  const answerOf = (value: Problem) => problemAnswer(value, deps.problemTypeBase);
  const begun = await deps.store.begin({
    ...keyRef,
    fingerprint: ref.fingerprint,
    now: deps.clock.now(),
    ttlMs: deps.ttlMs,
  });
  if (begun.isErr()) {
    deps.logger.error({ code: begun.error.code, message: begun.error.message }, 'idempotency store unavailable');
    return answerOf(
      problem('unavailable', 'The idempotency store is unavailable; retry later', {
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      }),
    );
  }
  switch (begun.value.kind) {
    case 'mismatch':
      return answerOf(
        problem('idempotency_key_reused', 'This Idempotency-Key was already used with a different request'),
      );
    case 'in_progress':
      return answerOf(
        problem('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed', {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        }),
      );
    case 'completed': {
      const stored = begun.value.response;
      return { status: stored.status, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' }, body: stored.body };
    }
    case 'started':
      break;
  }

  let outcome: IdempotentOutcome;
  try {
    outcome = await operation();
  } catch (error) {
    // A bug after the key was taken: whatever happened is not run a second time.
    deps.logger.error({ error }, 'unexpected error in an idempotent request');
    outcome = { answer: answerOf(problem('internal_error', 'An unexpected error occurred')), keep: true };
  }
  const settled = outcome.keep
    ? await deps.store.complete({ ...keyRef, response: outcome.answer })
    : await deps.store.release(keyRef);
  if (settled.isErr()) {
    deps.logger.error(
      { code: settled.error.code, message: settled.error.message, kept: outcome.keep },
      'could not settle an idempotency key; retries get 409 until it expires',
    );
  }
  return outcome.answer;
}
