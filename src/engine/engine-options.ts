import { DEFAULT_PAYMENT_MACHINE_OPTIONS } from '../machine/payment-machine.js';
import type { PaymentMachineOptions } from '../machine/payment-machine.js';
import type { Inspect } from './inspection.js';
import { longestCallMs } from './run-port.js';

/**
 * Tuning of the engine. Every field has a default. Of the lifecycle policy it extends, the engine
 * refuses an `inquiryDelaysMs` delay of 0 (see `checkInquiryDelays`), which the machine alone takes.
 */
export interface PaymentEngineOptions extends PaymentMachineOptions {
  /**
   * URL of the hosted payment page for a payment, given its id and its secret page token.
   * Default: `http://localhost:3000/pay/{id}?token={token}`.
   */
  readonly hostedPageUrl?: (payment: { readonly id: string; readonly token: string }) => string;
  /**
   * How long the hosted page link of a final payment (succeeded, failed, expired) still opens the
   * page, which shows the result; then the page and `submitCard` answer `not_found`, as for a wrong
   * token. Counted from the payment's last change, which for a final payment is when it became
   * final. Whole milliseconds from 0, or `Infinity` (never). Default 1,800,000 (30 minutes).
   */
  readonly hostedPageLinkGraceMs?: number;
  /**
   * Time limits of port calls, in milliseconds (from 1 to 2^31 - 1). A call that has not
   * answered fails as `unavailable` after its limit, and at most an eighth of it later (a
   * millisecond or so for a limit under 8 ms).
   */
  readonly timeouts?: {
    readonly acquirerMs?: number;
    readonly threeDSMs?: number;
    readonly storageMs?: number;
    readonly eventSinkMs?: number;
  };
  /** Bounded retries of transient failures (storage, inquiries, event delivery): a whole number from 0. Default 2. */
  readonly retries?: number;
  /** How many due payments or outbox events one batch (and one `sweep()` or `deliverEvents()` call) handles at most. Default 100. */
  readonly batchSize?: number;
  /**
   * How many batches one background-worker tick runs back to back while batches come back full,
   * so that a backlog drains faster than one batch per interval. Default 50.
   */
  readonly batchesPerTick?: number;
  /** How many due payments are handled at once in a tick. Default 8. */
  readonly sweepConcurrency?: number;
  /**
   * Back-off of an event the sink refused (after the `retries` of one delivery): it is offered
   * again after `firstDelayMs`, then after twice as long each time, up to `maxDelayMs`, for as
   * long as it is refused. It is never dropped; that payment's later events wait behind it.
   * Defaults: 1000 and 3,600,000 (one hour); `maxDelayMs` may be at most 2^31 - 1 (24.8 days).
   */
  readonly deliveryRetry?: {
    readonly firstDelayMs?: number;
    readonly maxDelayMs?: number;
  };
  /**
   * Receives XState inspection events for every payment step once it is stored (`@xstate.actor`,
   * `@xstate.event`, `@xstate.action`, `@xstate.snapshot`), as `createActor(machine, { inspect })`
   * would; e.g. `createSkyInspector().inspect` from `@statelyai/inspect`. Each payment is one
   * actor whose `sessionId` is the payment id. It may be `async`; what it throws or rejects with is
   * swallowed. Off by default.
   */
  readonly inspect?: Inspect;
  /**
   * How long a manual payment's authorization stays open to captures after it succeeded; then the
   * sweeper releases the uncaptured rest (`payment.authorization_expired`). Default 7 days.
   */
  readonly authorizationLifetimeMs?: number;
}

/** How long a manual authorization stays open by default: 7 days. */
export const DEFAULT_AUTHORIZATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The longest back-off of a refused event, and the longest lease: 2^31 - 1 ms, about 24.8 days. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The first back-off delay between the attempts of one publish. */
export const PUBLISH_BACKOFF_MS = 50;

/** Event-loop lag allowed for each port call a lease must outlast. */
const LAG_MS = 1_000;

export interface ResolvedEngineOptions {
  readonly hostedPageUrl: (payment: { readonly id: string; readonly token: string }) => string;
  readonly hostedPageLinkGraceMs: number;
  readonly acquirerTimeoutMs: number;
  readonly threeDSTimeoutMs: number;
  readonly storageTimeoutMs: number;
  readonly eventSinkTimeoutMs: number;
  readonly retries: number;
  readonly batchSize: number;
  readonly batchesPerTick: number;
  readonly sweepConcurrency: number;
  readonly deliveryFirstDelayMs: number;
  readonly deliveryMaxDelayMs: number;
  /**
   * How long delivery must still hold the outbox lease (of a repository that leases it) before it
   * publishes an event: the longest publish, then a renewal that fails, then storing deferrals and
   * deliveries, each with its retries and `LAG_MS`. Derived from the time-outs and `retries`.
   */
  readonly outboxHoldNeededMs: number;
  /** How long delivery asks to hold the outbox lease: `outboxHoldNeededMs` plus the renewal itself. */
  readonly outboxHoldMs: number;
  /**
   * How long the sweeper asks to hold its claim on a payment before it asks the acquirer about it:
   * the renewal, the longest inquiry, then the write and the load that confirms a failed one.
   */
  readonly claimHoldMs: number;
  /**
   * How long past a challenge's deadline the card waits in the vault: the longest the intent
   * commit of a challenge completed just before the deadline (and the load that confirms a failed
   * one) may take, so that its authorization still finds the card. The sweeper's expiry, or the
   * command that moves the payment on, takes it out before that.
   */
  readonly cardGraceMs: number;
  /** `PaymentEngineOptions.authorizationLifetimeMs`. */
  readonly authorizationLifetimeMs: number;
}

/** A time limit named `name`, in ms: a `RangeError` unless it is a number from 1 to 2^31 - 1. */
export function checkTimeoutMs(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 1 && value <= MAX_DELAY_MS)) {
    throw new RangeError(`${name} needs milliseconds from 1 to ${MAX_DELAY_MS} (got ${String(value)})`);
  }
  return value;
}

/**
 * Resolves defaults and refuses settings that would break the at-most-once argument: an
 * authorization is inquired about once `authorizationStaleAfterMs` has passed since its intent
 * was stored, so the intent commit (with its retries) and the acquirer call must end well before.
 */
export function resolveEngineOptions(options: PaymentEngineOptions): ResolvedEngineOptions {
  checkCallOptions(options);
  const resolved = resolveDefaults(options);
  const { deliveryFirstDelayMs: first, deliveryMaxDelayMs: max } = resolved;
  if (!Number.isSafeInteger(first) || first < 1 || !Number.isSafeInteger(max) || max < first || max > MAX_DELAY_MS) {
    throw new RangeError(
      `deliveryRetry needs whole milliseconds with 1 <= firstDelayMs <= maxDelayMs <= ${MAX_DELAY_MS} ` +
        `(got ${first} and ${max})`,
    );
  }
  for (const [name, value] of [
    ['batchSize', resolved.batchSize],
    ['batchesPerTick', resolved.batchesPerTick],
    ['sweepConcurrency', resolved.sweepConcurrency],
  ] as const) {
    // 0 or NaN made every sweep and delivery find nothing: no payment ever expired or was reconciled.
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`${name} needs a whole number of at least 1 (got ${String(value)})`);
    }
  }
  checkInquiryDelays(options.inquiryDelaysMs);
  const staleAfter = options.authorizationStaleAfterMs ?? DEFAULT_PAYMENT_MACHINE_OPTIONS.authorizationStaleAfterMs;
  const worstCase = (resolved.retries + 1) * resolved.storageTimeoutMs + resolved.acquirerTimeoutMs;
  if (staleAfter < worstCase * 1.5) {
    throw new RangeError(
      `authorizationStaleAfterMs (${staleAfter} ms) must be at least 1.5 x the longest an authorization can take ` +
        `((retries + 1) x storage time-out + acquirer time-out = ${worstCase} ms)`,
    );
  }
  const longest = Math.max(resolved.outboxHoldMs, resolved.claimHoldMs);
  if (!(longest <= MAX_DELAY_MS)) {
    throw new RangeError(
      `timeouts and retries make a lease of ${longest} ms (what a publish or an inquiry that runs out of time ` +
        `and the writes after it may take), more than ${MAX_DELAY_MS} ms`,
    );
  }
  return resolved;
}

/**
 * An inquiry delay of 0 is no back-off: the payment is due again at the very time it was asked,
 * so a background tick, which runs batches back to back while they are full, asked it again in
 * each of them, and `notFoundIsFinalAfterInquiries` answers of `not_found` came within a moment,
 * before a lagging acquirer could know the authorization, failing a payment it may yet approve.
 * (The machine itself takes 0: it only computes the next inquiry.) A `RangeError`.
 */
function checkInquiryDelays(delays: readonly number[] | undefined): void {
  for (const delay of delays ?? []) {
    if (!(delay > 0)) {
      throw new RangeError(
        `inquiryDelaysMs needs delays of more than 0 ms: a payment asked again at once is asked again and again (got ${String(delay)})`,
      );
    }
  }
}

/** The longest a batch's leases must last, from the time-outs and retries (`ResolvedEngineOptions`). */
function leaseTimes(
  options: Pick<ResolvedEngineOptions, 'acquirerTimeoutMs' | 'storageTimeoutMs' | 'eventSinkTimeoutMs' | 'retries'>,
): Pick<ResolvedEngineOptions, 'outboxHoldNeededMs' | 'outboxHoldMs' | 'claimHoldMs' | 'cardGraceMs'> {
  const { retries } = options;
  const storage = longestCallMs({ timeoutMs: options.storageTimeoutMs, retries }) + LAG_MS;
  const publish =
    longestCallMs({ timeoutMs: options.eventSinkTimeoutMs, retries, backoffMs: PUBLISH_BACKOFF_MS }) + LAG_MS;
  const inquiry = longestCallMs({ timeoutMs: options.acquirerTimeoutMs, retries }) + LAG_MS;
  const outboxHoldNeededMs = Math.ceil(publish + 3 * storage);
  return {
    outboxHoldNeededMs,
    outboxHoldMs: Math.ceil(outboxHoldNeededMs + storage),
    claimHoldMs: Math.ceil(storage + inquiry + 2 * storage),
    cardGraceMs: Math.ceil(2 * storage),
  };
}

/**
 * The options every port call depends on, checked before anything is derived from them: a
 * time-out that is not a number from 1 ms to what a timer holds, or a `retries` that is not a whole
 * number from 0, is a `RangeError` (a negative or `NaN` limit made every call time out at once);
 * a `hostedPageUrl` that is not a function is a `TypeError` (every hosted create failed).
 */
function checkCallOptions(options: PaymentEngineOptions): void {
  for (const name of ['acquirerMs', 'threeDSMs', 'storageMs', 'eventSinkMs'] as const) {
    const value: unknown = options.timeouts?.[name];
    if (value !== undefined) checkTimeoutMs(`timeouts.${name}`, value);
  }
  const retries: unknown = options.retries;
  if (retries !== undefined && (typeof retries !== 'number' || !Number.isSafeInteger(retries) || retries < 0)) {
    throw new RangeError(`retries needs a whole number of at least 0 (got ${String(retries)})`);
  }
  const url: unknown = options.hostedPageUrl;
  if (url !== undefined && typeof url !== 'function') {
    throw new TypeError(`hostedPageUrl needs a function of the payment's id and token (got ${typeof url})`);
  }
  const grace: unknown = options.hostedPageLinkGraceMs;
  if (
    grace !== undefined &&
    (typeof grace !== 'number' || grace < 0 || !(Number.isSafeInteger(grace) || grace === Number.POSITIVE_INFINITY))
  ) {
    throw new RangeError(`hostedPageLinkGraceMs needs whole milliseconds from 0, or Infinity (got ${String(grace)})`);
  }
}

/** How long a final payment's hosted page link still works by default: 30 minutes. */
export const DEFAULT_HOSTED_PAGE_LINK_GRACE_MS = 30 * 60 * 1000;

function resolveDefaults(options: PaymentEngineOptions): ResolvedEngineOptions {
  const times = {
    acquirerTimeoutMs: options.timeouts?.acquirerMs ?? 30_000,
    storageTimeoutMs: options.timeouts?.storageMs ?? 10_000,
    eventSinkTimeoutMs: options.timeouts?.eventSinkMs ?? 10_000,
    retries: options.retries ?? 2,
  };
  return {
    ...times,
    ...leaseTimes(times),
    hostedPageUrl:
      options.hostedPageUrl ??
      ((payment) => `http://localhost:3000/pay/${payment.id}?token=${encodeURIComponent(payment.token)}`),
    hostedPageLinkGraceMs: options.hostedPageLinkGraceMs ?? DEFAULT_HOSTED_PAGE_LINK_GRACE_MS,
    threeDSTimeoutMs: options.timeouts?.threeDSMs ?? 10_000,
    batchSize: options.batchSize ?? 100,
    batchesPerTick: options.batchesPerTick ?? 50,
    sweepConcurrency: options.sweepConcurrency ?? 8,
    deliveryFirstDelayMs: options.deliveryRetry?.firstDelayMs ?? 1000,
    deliveryMaxDelayMs: options.deliveryRetry?.maxDelayMs ?? 3_600_000,
    authorizationLifetimeMs: checkTimeoutMs(
      'authorizationLifetimeMs',
      options.authorizationLifetimeMs ?? DEFAULT_AUTHORIZATION_LIFETIME_MS,
    ),
  };
}
