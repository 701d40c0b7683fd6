import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import { resolveEngineOptions } from '../../src/engine/engine-options.js';
import type { PaymentEngineOptions } from '../../src/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { VISA, createDirect } from '../support/engine-helpers.js';

/**
 * The outbox lease is renewed only when what is left of it is less than `outboxHoldNeededMs`:
 * exactly that much left still covers the next publish. Written against a mutant (`>=` made `>`)
 * that no other test killed.
 */

const DEFAULTS: PaymentEngineOptions = { retries: 2 };

/** An engine on a repository that leases the outbox, whose sink takes `publishMs` of the clock per publish. */
function leasingEngine(publishMs: number) {
  const calls: string[] = [];
  const wrap = (repository: MemoryPaymentRepository): PaymentRepository => ({
    ...repository,
    holdOutbox: () => {
      calls.push('holdOutbox');
      return ok(true);
    },
  });
  const h = makeEngineHarness(DEFAULTS, 0, { wrapRepository: wrap });
  const publish = h.events.publish.bind(h.events);
  h.events.publish = (event, options) => {
    calls.push(`publish ${event.type}`);
    h.clock.advance(publishMs);
    return publish(event, options);
  };
  return { h, calls };
}

describe('outbox lease at its boundary', () => {
  const { outboxHoldMs, outboxHoldNeededMs } = resolveEngineOptions(DEFAULTS);
  const slack = outboxHoldMs - outboxHoldNeededMs;

  it('a lease with exactly outboxHoldNeededMs left covers the next publish: no renewal', async () => {
    const { h, calls } = leasingEngine(slack);
    await createDirect(h, VISA);
    calls.length = 0;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(calls).toEqual(['holdOutbox', 'publish payment.created', 'publish payment.succeeded']);
  });

  it('one millisecond less left: renewed before the next publish', async () => {
    const { h, calls } = leasingEngine(slack + 1);
    await createDirect(h, VISA);
    calls.length = 0;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(calls).toEqual(['holdOutbox', 'publish payment.created', 'holdOutbox', 'publish payment.succeeded']);
  });
});
