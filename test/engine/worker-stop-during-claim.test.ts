import { ok } from 'neverthrow';
import type { Result } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import type { PaymentRepository, RepositoryError } from '../../src/ports/payment-repository.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { MINUTE, VISA, createDirect, stored } from '../support/engine-helpers.js';

/**
 * `stop()` starts nothing more: a sweeper that is still holding its claim on a payment when the
 * worker is asked to stop does not go on to ask the acquirer. Written against a mutant (the
 * check after the claim dropped) that no other test killed.
 */
describe('background worker: stop() while the sweeper holds a claim', () => {
  it('asks the acquirer nothing once stop() was called; the payment stays as stored', async () => {
    const claims: string[] = [];
    let grant: (answer: Result<boolean, RepositoryError>) => void = () => undefined;
    const granted = new Promise<Result<boolean, RepositoryError>>((resolve) => {
      grant = resolve;
    });
    const wrap = (repository: MemoryPaymentRepository): PaymentRepository => ({
      ...repository,
      holdClaim: ({ paymentId }) => {
        claims.push(paymentId);
        return granted;
      },
    });
    const h = makeEngineHarness({}, 0, { wrapRepository: wrap });
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, VISA);
    h.clock.advance(15 * MINUTE);
    const before = await stored(h, payment.id);
    expect(before.state).toBe('authorizing');
    let inquiries = 0;
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    h.acquirer.inquire = (request) => {
      inquiries += 1;
      return inquire(request);
    };

    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(claims).toEqual([payment.id]), { timeout: 2_000, interval: 1 });
    const stopping = worker.stop({ waitMs: 5_000 });
    grant(ok(true));
    await stopping;

    expect(inquiries).toBe(0);
    expect(await stored(h, payment.id)).toStrictEqual(before);

    // A sweep afterwards asks, as the claim allows.
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 1 });
    expect(inquiries).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('succeeded');
  });
});
