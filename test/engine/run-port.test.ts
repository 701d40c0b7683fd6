import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Fiber from 'effect/Fiber';
import { awaitPort, callPort } from '../../src/engine/run-port.js';
import type { PortFailure } from '../../src/ports/port-result.js';

type Failure = PortFailure<'unavailable'>;
const unavailable = (retryable: boolean): Failure => ({ code: 'unavailable', message: 'down', retryable });

/** A port that answers from a script, one entry per call, and counts its calls. */
function scripted<T>(...answers: (() => Result<T, Failure> | Promise<Result<T, Failure>>)[]) {
  let calls = 0;
  const call = () => {
    const next = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    if (next === undefined) throw new Error('no answer scripted');
    return next();
  };
  return { call, calls: () => calls };
}

const isPromise = (value: unknown): boolean => typeof (value as { then?: unknown } | null)?.then === 'function';

describe('awaitPort', () => {
  it('hands back an answer given at once as it is: no promise, no timer', () => {
    const port = scripted(() => ok(42));
    const answer = awaitPort(port.call, { timeoutMs: 1_000, retries: 2 });
    expect(isPromise(answer)).toBe(false);
    expect((answer as Result<number, unknown>)._unsafeUnwrap()).toBe(42);
    expect(port.calls()).toBe(1);
  });

  it('fails at once, without retrying, for a failure the adapter says is not retryable', () => {
    const port = scripted<number>(() => err(unavailable(false)));
    const answer = awaitPort(port.call, { timeoutMs: 1_000, retries: 2 });
    expect(isPromise(answer)).toBe(false);
    expect((answer as Result<number, unknown>)._unsafeUnwrapErr()).toEqual({ kind: 'port', error: unavailable(false) });
    expect(port.calls()).toBe(1);
  });

  it('retries a retryable failure on the back-off schedule, starting from the answer in hand', async () => {
    const port = scripted<number>(
      () => err(unavailable(true)),
      () => Promise.resolve(err(unavailable(true))),
      () => ok(7),
    );
    const answer = awaitPort(port.call, { timeoutMs: 1_000, retries: 2, backoffMs: 1 });
    expect(isPromise(answer)).toBe(true);
    expect((await answer)._unsafeUnwrap()).toBe(7);
    expect(port.calls()).toBe(3);
  });

  it('gives up after the retries, with the last failure', async () => {
    const port = scripted<number>(() => err(unavailable(true)));
    const answer = await awaitPort(port.call, { timeoutMs: 1_000, retries: 2, backoffMs: 1 });
    expect(answer._unsafeUnwrapErr()).toEqual({ kind: 'port', error: unavailable(true) });
    expect(port.calls()).toBe(3);
  });

  it('times a pending answer out, and retries time-outs only when asked to', async () => {
    const hang = () => new Promise<Result<number, Failure>>(() => undefined);
    const once = scripted(hang);
    expect((await awaitPort(once.call, { timeoutMs: 20, retries: 2, backoffMs: 1 }))._unsafeUnwrapErr()).toEqual({
      kind: 'timeout',
    });
    expect(once.calls()).toBe(1);

    const again = scripted(hang, () => Promise.resolve(ok(5)));
    const answer = await awaitPort(again.call, { timeoutMs: 20, retries: 1, retryTimeouts: true, backoffMs: 1 });
    expect(answer._unsafeUnwrap()).toBe(5);
    expect(again.calls()).toBe(2);
  });

  it('treats a port that throws or rejects as a defect, not a failure', async () => {
    const throws = scripted<number>(() => {
      throw new Error('adapter bug');
    });
    expect(() => awaitPort(throws.call, { timeoutMs: 1_000 })).toThrow('adapter bug');
    const rejects = scripted<number>(() => Promise.reject(new Error('adapter bug')));
    await expect(awaitPort(rejects.call, { timeoutMs: 1_000 })).rejects.toThrow('adapter bug');
  });

  it('logs each attempt at debug level when traced', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = {
      debug: (fields: Record<string, unknown>) => lines.push(fields),
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const port = scripted<number>(
      () => err(unavailable(true)),
      () => ok(1),
    );
    const trace = { port: 'test.port', logger, clock: { now: () => 0 }, fields: { paymentId: 'p' } };
    await awaitPort(port.call, { timeoutMs: 1_000, retries: 1, backoffMs: 1, trace });
    expect(lines.map((line) => [line['port'], line['outcome'], line['paymentId']])).toEqual([
      ['test.port', 'unavailable', 'p'],
      ['test.port', 'ok', 'p'],
    ]);
  });
});

describe('callPort with an abortable policy', () => {
  it('hands every attempt a signal of its own and aborts it only when the answer comes too late', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const call = (signal?: AbortSignal) => {
      signals.push(signal);
      return signals.length === 1 ? new Promise<Result<number, Failure>>(() => undefined) : ok(7);
    };
    const exit = await Effect.runPromiseExit(
      callPort(call, { timeoutMs: 10, retries: 1, retryTimeouts: true, backoffMs: 1, abortable: true }),
    );
    expect(exit).toEqual(Exit.succeed(7));
    const [late, prompt] = signals;
    expect(late?.aborted).toBe(true);
    expect((late?.reason as DOMException).name).toBe('TimeoutError');
    expect(prompt?.aborted).toBe(false);
    expect(late).not.toBe(prompt);
  });

  it('aborts the signal when the waiting program is interrupted, and not after an answer', async () => {
    let pendingSignal: AbortSignal | undefined;
    const hanging = callPort(
      (signal?: AbortSignal) => {
        pendingSignal = signal;
        return new Promise<Result<number, Failure>>(() => undefined);
      },
      { timeoutMs: 60_000, abortable: true },
    );
    const fiber = Effect.runFork(hanging);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pendingSignal?.aborted).toBe(false);
    await Effect.runPromise(Fiber.interrupt(fiber));
    expect(pendingSignal?.aborted).toBe(true);
    expect((pendingSignal?.reason as DOMException).name).toBe('AbortError');

    let answeredSignal: AbortSignal | undefined;
    const answered = callPort(
      (signal?: AbortSignal) => {
        answeredSignal = signal;
        return Promise.resolve(ok(1));
      },
      { timeoutMs: 10, abortable: true },
    );
    expect(await Effect.runPromise(answered)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answeredSignal?.aborted).toBe(false);
  });

  it('gives no signal when the policy is not abortable', async () => {
    const seen: unknown[] = [];
    const call = (...args: unknown[]) => {
      seen.push(args.length);
      return Promise.resolve(ok(1));
    };
    await Effect.runPromise(callPort(call, { timeoutMs: 100 }));
    expect(seen).toEqual([0]);
  });
});

describe('a policy with an abandon signal (the background worker stopped)', () => {
  const ABANDONED = { kind: 'timeout', abandoned: true };
  const hang = () => new Promise<Result<number, Failure>>(() => undefined);

  it('awaitPort: makes no attempt once aborted, and stops waiting for the one under way at once', async () => {
    const before = new AbortController();
    before.abort();
    const none = scripted<number>(() => ok(1));
    expect(
      (
        awaitPort(none.call, { timeoutMs: 1_000, abandon: before.signal }) as Result<number, unknown>
      )._unsafeUnwrapErr(),
    ).toEqual(ABANDONED);
    expect(none.calls()).toBe(0);

    const abandon = new AbortController();
    const port = scripted(hang, () => ok(2));
    const answer = awaitPort(port.call, {
      timeoutMs: 60_000,
      retries: 2,
      retryTimeouts: true,
      abandon: abandon.signal,
    });
    abandon.abort();
    expect((await answer)._unsafeUnwrapErr()).toEqual(ABANDONED);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(port.calls()).toBe(1);
  });

  it('awaitPort: retries no more once aborted during a back-off, and ends the back-off at once', async () => {
    const abandon = new AbortController();
    const port = scripted<number>(
      () => err(unavailable(true)),
      () => ok(3),
    );
    const answer = awaitPort(port.call, { timeoutMs: 1_000, retries: 2, backoffMs: 60_000, abandon: abandon.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    abandon.abort();
    expect((await answer)._unsafeUnwrapErr()).toEqual(ABANDONED);
    expect(port.calls()).toBe(1);
  });

  it('callPort: is interrupted, makes no further attempt, and aborts the signal of the attempt under way', async () => {
    const abandon = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const port = scripted(hang, () => ok(4));
    const program = callPort(
      (signal?: AbortSignal) => {
        signals.push(signal);
        return port.call();
      },
      { timeoutMs: 60_000, retries: 2, retryTimeouts: true, abortable: true, abandon: abandon.signal },
    );
    const fiber = Effect.runFork(program);
    await new Promise((resolve) => setTimeout(resolve, 5));
    abandon.abort();
    const exit = await Effect.runPromise(Fiber.await(fiber));
    expect(Exit.isInterrupted(exit)).toBe(true);
    expect(port.calls()).toBe(1);
    expect((signals[0]?.reason as DOMException).name).toBe('AbortError');
  });

  it('changes nothing while not aborted', async () => {
    const abandon = new AbortController();
    const port = scripted<number>(
      () => err(unavailable(true)),
      () => Promise.resolve(ok(5)),
    );
    const answer = awaitPort(port.call, { timeoutMs: 1_000, retries: 2, backoffMs: 1, abandon: abandon.signal });
    expect((await answer)._unsafeUnwrap()).toBe(5);
    expect(await Effect.runPromise(callPort(port.call, { timeoutMs: 1_000, abandon: abandon.signal }))).toBe(5);
  });
});
