import * as Cause from 'effect/Cause';
import * as Chunk from 'effect/Chunk';
import { maskDigits, withoutUrlCredentials } from '../domain/mask-digits.js';
import type { PaymentErrorCode } from '../errors/payment-error.js';
import type { Clock } from '../ports/clock.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { checkTimeoutMs } from './engine-options.js';
import { describeDefect, errorHeadline } from './describe-defect.js';
import { awaitPort } from './run-port.js';
import type { SweepReport } from './sweep.js';

/**
 * The payment id `checkHealth` loads to probe storage: well-formed (`payment_` and 32 lowercase
 * hex digits), so every adapter reads it as it reads any id, and never a payment's: the engine
 * refuses it as `createPayment`'s `paymentId`, never issues it from `newPaymentId`, and the
 * sandbox and crypto id generators never make it. An adapter answers `ok(null)` for it, as for any
 * unknown id; the probe writes nothing.
 */
export const HEALTH_PROBE_PAYMENT_ID = `payment_${'0'.repeat(32)}`;

/** Whether a background worker runs: `stopping` from `stop()` until what was under way ended or was abandoned. */
export type BackgroundWorkerState = 'running' | 'stopping' | 'stopped';

/**
 * How a background tick failed, as the engine logs it (`background tick failed`): a failure's
 * `PaymentError` code and message, or an adapter that threw (or a bug) as `defect` with the
 * error's kind and message. Digits are masked (`[digits]`) and credentials in URLs left out, so it
 * never holds card data; the stack stays in the log.
 */
export interface BackgroundTickFailure {
  /** When the tick ended, by the clock port (epoch ms). */
  readonly at: number;
  /** The failure's code (`unavailable` when storage failed), or `defect`. */
  readonly code: PaymentErrorCode | 'defect';
  /** What went wrong, masked: `payment storage is unavailable: …`, `TypeError: …`. */
  readonly message: string;
}

/**
 * One loop of the background worker (sweeper or delivery), as `BackgroundWorker.status()` reads
 * it. Times are the clock port's epoch milliseconds; `null` until it happened once. A tick fails
 * when its program failed or threw as a whole (logged as `background tick failed`); a payment the
 * sweeper could not handle, or an event the sink refused, is counted in `lastReport` instead.
 */
export interface BackgroundLoopStatus<R> {
  /** Whether a tick is under way. */
  readonly ticking: boolean;
  /** How many ticks have ended, failed or not. */
  readonly ticks: number;
  /** When the last tick started. */
  readonly lastTickStartedAt: number | null;
  /** When the last tick ended, failed or not. */
  readonly lastTickEndedAt: number | null;
  /** When a tick last ended without a failure. */
  readonly lastSuccessAt: number | null;
  /** How many ticks in a row have failed: 0 once one ends without a failure. */
  readonly failuresInARow: number;
  /** The last failure, even when ticks have succeeded since (see `failuresInARow`). */
  readonly lastFailure: BackgroundTickFailure | null;
  /** What the last tick that ended without a failure did (all its batches together). */
  readonly lastReport: R | null;
  /**
   * Whether that tick's last batch came back full: more was due than a batch holds when it ended
   * (a backlog larger than `batchesPerTick` batches, or work that keeps failing or conflicting).
   */
  readonly moreWaiting: boolean;
}

/** What a delivery tick did: events delivered, and events not delivered (deferred with back-off). */
export interface DeliveryTickReport {
  /** Events the sink took, now marked delivered. */
  readonly delivered: number;
  /** Events the sink refused or did not answer for, offered again later (`deliveryRetry`). */
  readonly deferred: number;
}

/** What `BackgroundWorker.status()` answers: plain frozen data, read at `at`. */
export interface BackgroundWorkerStatus {
  /** `running`, `stopping` (from `stop()` until it resolves) or `stopped`. */
  readonly state: BackgroundWorkerState;
  /** The pause between the end of a loop's tick and the start of its next. */
  readonly intervalMs: number;
  /** When the worker was started (clock port, epoch ms). */
  readonly startedAt: number;
  /** When this status was read (clock port, epoch ms). */
  readonly at: number;
  /** The sweeper: expiries and inquiries. */
  readonly sweep: BackgroundLoopStatus<SweepReport>;
  /** Outbox delivery to the event sink. */
  readonly delivery: BackgroundLoopStatus<DeliveryTickReport>;
}

/** What `checkHealth` found of storage: whether it answered a read in time, and how long it took. */
export interface StorageHealth {
  /** `ok` when the repository answered the probe (`load` of `HEALTH_PROBE_PAYMENT_ID`) within the time-out. */
  readonly status: 'ok' | 'unavailable';
  /** How long the probe took, by the clock port. */
  readonly ms: number;
  /**
   * Why it is unavailable: the time-out, or the adapter's failure as the engine logs it (digits
   * masked, credentials in URLs left out). Absent when `ok`.
   */
  readonly message?: string;
}

/** What `checkHealth` answers: plain frozen data. */
export interface HealthReport {
  /** When the check started (clock port, epoch ms). */
  readonly at: number;
  /** Whether storage answered the probe. */
  readonly storage: StorageHealth;
  /**
   * The status of the background worker this engine started last (`startBackgroundWorker`), stopped
   * or not; absent when it never started one.
   */
  readonly worker?: BackgroundWorkerStatus;
}

/** Options of `checkHealth`. */
export interface HealthCheckOptions {
  /**
   * How long the storage probe may take, in milliseconds (from 1 to 2^31 - 1): set it below your
   * probe's own time-out so that a storage that hangs is reported, not waited for. Default the
   * engine's storage time-out (`timeouts.storageMs`, 10 s). The probe is never retried.
   */
  readonly timeoutMs?: number;
}

/** `checkHealth`'s `timeoutMs`, checked: a `RangeError` unless from 1 to 2^31 - 1. */
export function healthTimeoutOf(ctx: EngineContext, options: HealthCheckOptions): number {
  return checkTimeoutMs('timeoutMs', options.timeoutMs ?? ctx.options.storageTimeoutMs);
}

/**
 * Text fit for a health report, which a host may show on a dashboard or a status page: digits
 * masked as in the logs (`maskDigits`: no card number, at most 200 characters), and the user and
 * password of a URL left out (`withoutUrlCredentials`).
 */
export function healthText(text: string): string {
  return maskDigits(withoutUrlCredentials(text));
}

/** The clock port's time, or `fallback` when the clock throws: recording a tick must not end its loop. */
export function readClock(clock: Clock, fallback: number): number {
  try {
    const now = clock.now();
    return typeof now === 'number' && Number.isFinite(now) ? now : fallback;
  } catch {
    return fallback;
  }
}

/** A failed tick's cause as a `BackgroundTickFailure` (without `at`); never throws. */
export function tickFailureOf(cause: Cause.Cause<unknown>): Omit<BackgroundTickFailure, 'at'> {
  try {
    const [failure] = Chunk.toReadonlyArray(Cause.failures(cause));
    if (failure !== undefined) {
      const { code, message } = (typeof failure === 'object' && failure !== null ? failure : {}) as {
        readonly code?: unknown;
        readonly message?: unknown;
      };
      return typeof code === 'string'
        ? { code: code as PaymentErrorCode, message: healthText(`${code}: ${String(message)}`) }
        : { code: 'defect', message: `a failure that is no PaymentError (${typeof failure})` };
    }
    const [defect] = Chunk.toReadonlyArray(Cause.defects(cause));
    return { code: 'defect', message: healthText(errorHeadline(defect)) };
  } catch {
    return { code: 'defect', message: 'a failure that could not be described' };
  }
}

/** The mutable record of one loop behind `BackgroundLoopStatus`; updated once per tick, read by `status()`. */
export interface LoopTracker<R> {
  /** Whether a tick is under way (what `stop()` names when it abandons one). */
  readonly ticking: boolean;
  started(): void;
  succeeded(report: R, moreWaiting: boolean): void;
  failed(failure: Omit<BackgroundTickFailure, 'at'>): void;
  /** The worker stopped: a tick it abandoned is no longer under way. */
  stopped(): void;
  status(): BackgroundLoopStatus<R>;
}

/**
 * Records one loop's ticks with the clock port's times. A few assignments per tick, nothing per
 * command; `status()` copies and freezes. Never throws.
 */
export function createLoopTracker<R extends object>(clock: Clock): LoopTracker<R> {
  let ticking = false;
  let ticks = 0;
  let lastTickStartedAt: number | null = null;
  let lastTickEndedAt: number | null = null;
  let lastSuccessAt: number | null = null;
  let failuresInARow = 0;
  let lastFailure: BackgroundTickFailure | null = null;
  let lastReport: R | null = null;
  let moreWaiting = false;
  const ended = (): number => {
    ticking = false;
    ticks += 1;
    lastTickEndedAt = readClock(clock, lastTickStartedAt ?? 0);
    return lastTickEndedAt;
  };
  return {
    get ticking() {
      return ticking;
    },
    started: () => {
      ticking = true;
      lastTickStartedAt = readClock(clock, lastTickEndedAt ?? 0);
    },
    succeeded: (report, more) => {
      lastSuccessAt = ended();
      failuresInARow = 0;
      lastReport = Object.freeze({ ...report });
      moreWaiting = more;
    },
    failed: (failure) => {
      const at = ended();
      failuresInARow += 1;
      lastFailure = Object.freeze({ at, code: failure.code, message: failure.message });
    },
    stopped: () => {
      ticking = false;
    },
    status: () =>
      Object.freeze({
        ticking,
        ticks,
        lastTickStartedAt,
        lastTickEndedAt,
        lastSuccessAt,
        failuresInARow,
        lastFailure,
        lastReport,
        moreWaiting,
      }),
  };
}

/**
 * Probes storage with a read that cannot touch a payment: `repository.load` of
 * `HEALTH_PROBE_PAYMENT_ID`, once (no retry), within `timeoutMs`. Never rejects: a failure, a
 * time-out, an adapter that throws or answers no `Result` are all `unavailable` (a defect is also
 * logged as an error, with `describeDefect`; an unavailable storage at info).
 */
export async function probeStorage(ctx: EngineContext, timeoutMs: number): Promise<StorageHealth> {
  const { clock } = ctx.ports;
  const started = readClock(clock, 0);
  const elapsed = () => Math.max(0, readClock(clock, started) - started);
  const unavailable = (message: string): StorageHealth => {
    const ms = elapsed();
    ctx.logger.info({ check: 'storage', ms, message }, 'health check: storage unavailable');
    return { status: 'unavailable', ms, message };
  };
  try {
    const answer = await awaitPort(() => ctx.ports.repository.load(HEALTH_PROBE_PAYMENT_ID), {
      ...traced(ctx, 'repository.load', { paymentId: HEALTH_PROBE_PAYMENT_ID }),
      timeoutMs,
      retries: 0,
    });
    if (answer.isOk()) return { status: 'ok', ms: elapsed() };
    const failure = answer.error;
    if (failure.kind === 'timeout') return unavailable(`payment storage did not answer within ${timeoutMs} ms`);
    return unavailable(
      healthText(`payment storage is unavailable (${String(failure.error.code)}): ${String(failure.error.message)}`),
    );
  } catch (defect) {
    // Logged with its stack frames (`describeDefect`), as the engine logs every defect.
    ctx.logger.error({ check: 'storage', cause: describeDefect(defect) }, 'health check: storage adapter defect');
    return {
      status: 'unavailable',
      ms: elapsed(),
      message: healthText(`payment storage failed: ${errorHeadline(defect)}`),
    };
  }
}
