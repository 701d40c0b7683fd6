import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { PaymentEngine } from '../../src/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { createHosted, PROFILE } from '../support/engine-helpers.js';
import { hostedRequest } from '../support/requests.js';

// Found by a reviewing helper (the error-model boundary): what `runCommand` does once a command's
// step has answered (the log line that names the ids the client sent, mapping the value) could
// throw, and a throw there rejected the `ResultAsync` the caller holds. A payment id of `null`
// from plain JavaScript did so whenever the logger wrote info lines, as any real logger does.

/** A value as plain JavaScript may pass it, whatever the types say. */
const untyped = <T>(value: unknown): T => value as T;

/** How a command's answer ended: its `Result`, or the reason it rejected (which it must never do). */
async function answerOf<T>(
  call: () => ReturnType<PaymentEngine['getPaymentRecord']> | PromiseLike<T>,
): Promise<{ readonly code: string } | { readonly rejected: unknown } | 'ok'> {
  try {
    const result = (await call()) as { isErr(): boolean; error?: { code: string } };
    return result.isErr() ? { code: result.error?.code ?? '?' } : 'ok';
  } catch (rejected) {
    return { rejected };
  }
}

describe('commands whose ids are not strings (plain JavaScript), with a logger that writes', () => {
  it.each([
    ['getPaymentRecord(null)', (engine: PaymentEngine) => engine.getPaymentRecord(untyped(null)), '[object]'],
    [
      'getPayment with paymentId undefined',
      (engine: PaymentEngine) => engine.getPayment({ paymentId: untyped(undefined), profileId: PROFILE }),
      '[undefined]',
    ],
    [
      'submitCard with paymentId null',
      (engine: PaymentEngine) => engine.submitCard({ paymentId: untyped(null), token: 't', body: {} }),
      '[object]',
    ],
    [
      'completeChallenge with paymentId 42',
      (engine: PaymentEngine) => engine.completeChallenge(untyped({ paymentId: 42, transactionId: 'x', cres: 'y' })),
      '[number]',
    ],
  ])('%s answers not_found, and logs the id by its type', async (_, call, logged) => {
    const h = makeEngineHarness();
    expect(await answerOf(() => call(h.engine))).toEqual({ code: 'not_found' });
    const failed = h.logs.find((log) => log.message === 'command failed');
    expect(failed?.fields['code']).toBe('not_found');
    expect(failed?.fields['paymentId']).toBe(logged);
  });

  it('createPayment with profileId undefined answers its Result, and never rejects', async () => {
    const h = makeEngineHarness();
    const answer = await answerOf(() =>
      h.engine.createPayment({ client: compliantClient, profileId: untyped(undefined), body: hostedRequest() }),
    );
    expect(answer).not.toHaveProperty('rejected');
    expect(answer).toHaveProperty('code');
    expect(h.logs.find((log) => log.message === 'command failed')?.fields['profileId']).toBe('[undefined]');
  });
});

describe('a value that cannot be handed out (a defect of the repository)', () => {
  it('listPayments over a record holding an object that refuses to be frozen: internal_error, not a rejection', async () => {
    const unfreezable = new Proxy({}, { preventExtensions: () => false });
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        list: async (query) => {
          const page = (await repository.list(query))._unsafeUnwrap();
          return ok({ ...page, items: page.items.map((record) => ({ ...record, billing: untyped(unfreezable) })) });
        },
      }),
    });
    await createHosted(h);
    expect(await answerOf(() => h.engine.listPayments({ profileId: PROFILE }))).toEqual({ code: 'internal_error' });
    expect(h.logs.find((log) => log.message === 'engine defect')?.fields['command']).toBe('listPayments');
  });
});
