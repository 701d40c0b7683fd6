import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type { Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { onAbort } from '../../src/engine/on-abort.js';
import { awaitPort, callPort } from '../../src/engine/run-port.js';
import type { PortFailure } from '../../src/ports/port-result.js';
import { recordProcessEvents } from '../support/process-events.js';

/**
 * The background worker's abandon signal is watched by every port call it has in flight: one
 * listener per call made Node print `MaxListenersExceededWarning` in the host's output past ten
 * (found by a reviewing helper, with a Postgres server restarting under a worker).
 */
const warnings = recordProcessEvents<Error>('warning');

/** Lets Node emit its process warnings (on the next tick). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

type Failure = PortFailure<'unavailable'>;
const never = () => new Promise<Result<number, Failure>>(() => undefined);

describe('calls watching one abandon signal', () => {
  it('fifty pending calls of both kinds add no listener each: no leak warning, and an abort settles them all', async () => {
    const abandonment = new AbortController();
    const policy = { timeoutMs: 60_000, retries: 0, abandon: abandonment.signal };
    const awaited = Array.from({ length: 25 }, () => awaitPort(never, policy));
    const programs = Array.from({ length: 25 }, () => Effect.runPromiseExit(callPort(never, policy)));
    await settle();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);

    abandonment.abort();
    for (const answer of await Promise.all(awaited)) {
      expect(answer._unsafeUnwrapErr()).toEqual({ kind: 'timeout', abandoned: true });
    }
    for (const exit of await Promise.all(programs)) expect(Exit.isFailure(exit)).toBe(true);
    await settle();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('onAbort: a callback stopped before the abort is not called; one added after it is called at once', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stopA = onAbort(controller.signal, () => calls.push('a'));
    onAbort(controller.signal, () => calls.push('b'));
    const stopC = onAbort(controller.signal, () => calls.push('c'));
    stopC();
    controller.abort();
    expect(calls).toEqual(['a', 'b']);
    stopA(); // after the abort: nothing happens
    onAbort(controller.signal, () => calls.push('d'));
    expect(calls).toEqual(['a', 'b', 'd']);
  });

  it('onAbort: the same callback twice is called twice', () => {
    const controller = new AbortController();
    let calls = 0;
    const callback = () => (calls += 1);
    onAbort(controller.signal, callback);
    onAbort(controller.signal, callback);
    controller.abort();
    expect(calls).toBe(2);
  });
});
