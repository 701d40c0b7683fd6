import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { awaitPort } from '../../src/engine/run-port.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import type { PortFailure, PortResult } from '../../src/ports/port-result.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createHosted } from '../support/engine-helpers.js';
import { recordProcessEvents } from '../support/process-events.js';

// Found by a reviewing helper (what waits or repeats, and the error-model boundary): a port whose
// pending answer was no `Result` (a promise of `undefined`, a failure of `null`) threw inside the
// handler that waits for it. The wait had already given up its deadline, so the command, the
// sweep or the delivery batch waited for ever, and the throw became an unhandled rejection,
// which ends a Node process by default.

/** A value as a buggy adapter (plain JavaScript) may answer it, whatever the types say. */
const untyped = <T>(value: unknown): T => value as T;

/** What a promise has done after the microtasks now queued and a turn of the event loop: no timer involved. */
async function settledSoon<T>(promise: PromiseLike<T>): Promise<{ readonly value: T } | 'pending' | 'rejected'> {
  let state: { readonly value: T } | 'pending' | 'rejected' = 'pending';
  promise.then(
    (value) => (state = { value }),
    () => (state = 'rejected'),
  );
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  return state;
}

const unhandled = recordProcessEvents('unhandledRejection');

/** Lets a rejection nobody handles be reported (Node reports it after the microtasks of a turn). */
const oneTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a pending port answer that is no Result (a defect of the adapter)', () => {
  it.each([
    ['a promise of undefined', () => Promise.resolve(untyped(undefined))],
    ['a promise of a plain object', () => Promise.resolve(untyped({ value: 1 }))],
    ['a promise of err(null)', () => Promise.resolve(err(untyped(null)))],
    ['a promise of err("text")', () => Promise.resolve(err(untyped('storage down')))],
  ])('awaitPort: %s rejects as a defect at once, with no unhandled rejection', async (_, call) => {
    const answer = awaitPort(untyped<() => PortResult<number, PortFailure<string>>>(call), { timeoutMs: 10_000 });
    const settled = await settledSoon(Promise.resolve(answer));
    expect(settled).toBe('rejected');
    await oneTurn();
    expect(unhandled).toEqual([]);
  });

  it('the same answer given at once is a defect too (it threw already; now with a message naming no value)', () => {
    expect(() =>
      awaitPort(
        untyped(() => undefined),
        { timeoutMs: 10_000 },
      ),
    ).toThrow(new TypeError('a port answered undefined, not a Result'));
    expect(() =>
      awaitPort(
        untyped(() => null),
        { timeoutMs: 10_000 },
      ),
    ).toThrow(new TypeError('a port answered null, not a Result'));
  });

  it('a command whose repository answers a promise of undefined: internal_error, not a wait for ever', async () => {
    let broken = false;
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        load: (id) =>
          broken ? untyped<ReturnType<PaymentRepository['load']>>(Promise.resolve(undefined)) : repository.load(id),
      }),
    });
    const payment = await createHosted(h);
    broken = true;
    const settled = await settledSoon(h.engine.getPaymentRecord(payment.id));
    expect(settled).not.toBe('pending');
    expect(settled).not.toBe('rejected');
    if (typeof settled === 'object') expect(settled.value._unsafeUnwrapErr().code).toBe('internal_error');
    expect(h.logs.some((log) => log.message === 'engine defect')).toBe(true);
    await oneTurn();
    expect(unhandled).toEqual([]);
  });

  it('an event sink whose publish answers a promise of undefined: the event is deferred at once', async () => {
    const h = makeEngineHarness();
    await createHosted(h);
    h.events.publish = () => untyped(Promise.resolve(undefined));
    const settled = await settledSoon(h.engine.deliverEvents());
    expect(settled).not.toBe('pending');
    expect(settled).not.toBe('rejected');
    if (typeof settled === 'object') expect(settled.value._unsafeUnwrap()).toBe(0);
    const deferred = h.logs.filter((log) => log.message === 'event sink threw for an event; it will be offered again');
    expect(deferred).toHaveLength(1);
    expect(String(deferred[0]?.fields['cause'])).toMatch(/^TypeError: a port answered undefined, not a Result/);
    await oneTurn();
    expect(unhandled).toEqual([]);
  });
});
