import fc from 'fast-check';
import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/index.js';
import { TROUBLE_IN_A_ROW } from '../../src/engine/deliver-events.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { VISA, createDirect } from '../support/engine-helpers.js';
import { NUM_RUNS } from '../support/property-runs.js';

/** What the sink does with one offer of an event. */
type Answer = 'ok' | 'refuse' | 'retry' | 'throw' | 'reject';

const answer = fc.constantFrom<Answer>('ok', 'refuse', 'retry', 'retry', 'retry', 'throw', 'reject');

/** Per payment, per event (created, succeeded): its answers, offer after offer; then `ok`. */
const scripts = fc.array(fc.tuple(fc.array(answer, { maxLength: 3 }), fc.array(answer, { maxLength: 3 })), {
  minLength: 1,
  maxLength: 8,
});

const steps = fc.array(
  fc.oneof(
    { arbitrary: fc.constant({ kind: 'deliver' } as const), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 40 }).map((ms) => ({ kind: 'advance', ms }) as const), weight: 1 },
  ),
  { maxLength: 12 },
);

interface Offer {
  readonly event: DomainEvent;
  readonly answer: Answer;
  /** Whether the event had never been offered before. */
  readonly fresh: boolean;
}

describe('event delivery (property)', () => {
  it('keeps order per payment, delivers each event once, stalls only on the rule, and skips no payment otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(scripts, steps, fc.integer({ min: 1, max: 10 }), async (script, plan, batchSize) => {
        const h = makeEngineHarness({ batchSize, deliveryRetry: { firstDelayMs: 10, maxDelayMs: 40 } });
        const payments: string[] = [];
        for (let index = 0; index < script.length; index++) payments.push((await createDirect(h, VISA)).id);
        const outbox = (await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap();
        const offers = new Map<string, number>();
        let call: Offer[] = [];
        const accepted: DomainEvent[] = [];
        h.events.publish = (event) => {
          const count = offers.get(event.id) ?? 0;
          offers.set(event.id, count + 1);
          const answers = script[payments.indexOf(event.paymentId)]?.[event.type === 'payment.created' ? 0 : 1];
          const given = answers?.[count] ?? 'ok';
          call.push({ event, answer: given, fresh: count === 0 });
          switch (given) {
            case 'ok':
              accepted.push(event);
              return ok(undefined);
            case 'refuse':
              return err({ code: 'unavailable', message: 'webhook answered 410', retryable: false });
            case 'retry':
              return err({ code: 'unavailable', message: 'webhook answered 500', retryable: true });
            case 'throw':
              throw new Error('sink bug');
            case 'reject':
              return Promise.reject(new Error('fetch failed'));
          }
        };

        const deliver = async () => {
          const due = (await h.repository.readOutbox({ now: h.clock.now(), limit: batchSize }))._unsafeUnwrap();
          call = [];
          expect((await h.engine.deliverEvents()).isOk()).toBe(true);
          // The batch ends on a retryable failure of a new event before the sink answered any,
          // or on the TROUBLE_IN_A_ROW-th such failure in a row; never otherwise.
          let answered = false;
          let inARow = 0;
          let stalled = false;
          for (const offer of call) {
            expect(stalled).toBe(false);
            if (offer.answer === 'ok' || offer.answer === 'refuse') {
              answered = true;
              inARow = 0;
            } else if (offer.answer === 'retry') {
              inARow += 1;
              stalled = (offer.fresh && !answered) || inARow >= TROUBLE_IN_A_ROW;
            }
          }
          // Unless it stalled, every payment the batch read was offered its first due event.
          if (!stalled) {
            const firsts = new Map<string, string>();
            for (const entry of due)
              if (!firsts.has(entry.event.paymentId)) firsts.set(entry.event.paymentId, entry.event.id);
            const offered = new Set(call.map((offer) => offer.event.id));
            for (const id of firsts.values()) expect(offered.has(id)).toBe(true);
          }
        };

        for (const step of plan) {
          if (step.kind === 'deliver') await deliver();
          else h.clock.advance(step.ms);
        }
        for (let round = 0; round < 60; round++) {
          const left = (await h.repository.readOutbox({ now: Number.MAX_SAFE_INTEGER, limit: 1 }))._unsafeUnwrap();
          if (left.length === 0) break;
          h.clock.advance(40);
          await deliver();
        }

        // Each event accepted once, all of them in the end, in outbox order per payment.
        expect(accepted.map((event) => event.id).sort()).toEqual(outbox.map((entry) => entry.event.id).sort());
        for (const paymentId of payments) {
          expect(accepted.filter((event) => event.paymentId === paymentId).map((event) => event.id)).toEqual(
            outbox.filter((entry) => entry.event.paymentId === paymentId).map((entry) => entry.event.id),
          );
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
