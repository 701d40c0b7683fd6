import { err } from 'neverthrow';
import type { InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { INSPECTED_ACTORS, createInspection } from '../../src/engine/inspection.js';
import type { PaymentRecord } from '../../src/index.js';
import { paymentMachine } from '../../src/machine/payment-machine.js';
import { startPayment, stepPayment } from '../../src/machine/step-payment.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';

const PROFILE = 'profile_0001';

function collect() {
  const events: InspectionEvent[] = [];
  return { events, inspect: (event: InspectionEvent) => void events.push(event) };
}

const summary = (events: readonly InspectionEvent[]) =>
  events.map((e) => {
    switch (e.type) {
      case '@xstate.event':
        return `event ${e.event.type}`;
      case '@xstate.action':
        return `action ${e.action.type}`;
      case '@xstate.snapshot':
        return `snapshot ${JSON.stringify((e.snapshot as unknown as { value: unknown }).value)}`;
      default:
        return e.type;
    }
  });

describe('inspection', () => {
  it('reports a direct payment as one actor: its events, actions and snapshots, as XState would', async () => {
    const { events, inspect } = collect();
    const h = makeEngineHarness({ inspect });
    const payment = (
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      })
    )._unsafeUnwrap();
    expect(summary(events)).toEqual([
      '@xstate.actor',
      'event xstate.init',
      'action emitEvent',
      'action startAuthentication',
      'snapshot "authenticating"',
      'event authentication.not_required',
      'action authorize',
      'snapshot {"authorizing":"requested"}',
      'event authorization.approved',
      'action emitEvent',
      'snapshot "succeeded"',
    ]);
    for (const event of events) {
      expect(event.actorRef.sessionId).toBe(payment.id);
      expect(event.rootId).toBe(payment.id);
    }
    const last = events.at(-1);
    expect(last?.actorRef.getSnapshot()).toBe(last?.type === '@xstate.snapshot' ? last.snapshot : undefined);
  });

  it('keeps one actor per payment across commands, and shows ignored events too', async () => {
    const { events, inspect } = collect();
    const h = makeEngineHarness({ inspect });
    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrap();
    await h.engine.sweep(); // nothing due: no step
    await h.engine.submitCard({
      paymentId: created.id,
      token: h.hostedToken(created),
      body: cardSubmission('4242424242424242'),
    });
    const actors = new Set(events.map((e) => e.actorRef));
    expect(actors.size).toBe(1);
    expect(events.filter((e) => e.type === '@xstate.actor')).toHaveLength(1);
    expect(summary(events).filter((s) => s.startsWith('event '))).toEqual([
      'event xstate.init',
      'event card.submitted',
      'event authentication.not_required',
      'event authorization.approved',
    ]);
  });

  it('never lets a failing inspector break a payment, and carries no card data', async () => {
    const seen: InspectionEvent[] = [];
    const h = makeEngineHarness({
      inspect: (event) => {
        seen.push(event);
        throw new Error('inspector down');
      },
    });
    const payment = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    expect(payment._unsafeUnwrap().state).toBe('succeeded');
    const dump = JSON.stringify(seen.map((e) => ({ ...e, actorRef: undefined, sourceRef: undefined })));
    expect(dump).not.toContain('4242424242424242');
    expect(seen.length).toBeGreaterThan(0);
  });

  it('swallows the rejection of an async inspector, whether a function or an observer', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      for (const inspect of [
        async () => {
          throw new Error('inspector backend down');
        },
        {
          next: async () => {
            throw new Error('inspector backend down');
          },
        },
      ]) {
        const h = makeEngineHarness({ inspect });
        const payment = await h.engine.createPayment({
          client: compliantClient,
          profileId: PROFILE,
          body: directRequest('4242424242424242'),
        });
        expect(payment._unsafeUnwrap().state).toBe('succeeded');
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  });
});

describe('inspection reports only what is stored', () => {
  const snapshots = (events: readonly InspectionEvent[]) => summary(events).filter((s) => s.startsWith('snapshot '));

  it('two simultaneous submits: only the winner is reported, and the last snapshot is the stored state', async () => {
    const { events, inspect } = collect();
    const h = makeEngineHarness({ inspect }, 0, { threeDS: { latencyMs: 20 } });
    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrap();
    const submit = () =>
      h.engine.submitCard({
        paymentId: created.id,
        token: h.hostedToken(created),
        body: cardSubmission('4242424242424242'),
      });
    const results = await Promise.all([submit(), submit()]);
    expect(results.filter((result) => result.isErr()).map((result) => result._unsafeUnwrapErr().code)).toEqual([
      'conflict',
    ]);
    expect(summary(events).filter((s) => s.startsWith('event '))).toEqual([
      'event xstate.init',
      'event card.submitted',
      'event authentication.not_required',
      'event authorization.approved',
    ]);
    expect(snapshots(events).at(-1)).toBe('snapshot "succeeded"');
    expect((await h.engine.getPaymentRecord(created.id))._unsafeUnwrap().state).toBe('succeeded');
  });

  it('a create whose insert fails reports no actor; a submit whose intent write fails reports no step', async () => {
    const { events, inspect } = collect();
    const h = makeEngineHarness({ inspect });
    h.repository.injectFailure('insert');
    const lost = await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() });
    expect(lost._unsafeUnwrapErr().code).toBe('unavailable');
    expect(summary(events)).toEqual([]);

    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrap();
    expect(summary(events)).toEqual([
      '@xstate.actor',
      'event xstate.init',
      'action emitEvent',
      'snapshot "awaiting_card_data"',
    ]);
    const submit = () =>
      h.engine.submitCard({
        paymentId: created.id,
        token: h.hostedToken(created),
        body: cardSubmission('4242424242424242'),
      });
    h.repository.injectFailure('update');
    expect((await submit())._unsafeUnwrapErr().code).toBe('unavailable');
    expect(events).toHaveLength(4);
    expect((await submit())._unsafeUnwrap().state).toBe('succeeded');
    expect(summary(events).filter((s) => s.startsWith('event '))).toEqual([
      'event xstate.init',
      'event card.submitted',
      'event authentication.not_required',
      'event authorization.approved',
    ]);
  });

  it('an outcome that cannot be stored after the intent commit is not reported: the payment stays authorizing', async () => {
    const { events, inspect } = collect();
    const h = makeEngineHarness({ inspect }, 0, {
      repository: {
        failOn: (method, args) =>
          method === 'update' && (args[0] as PaymentRecord).state === 'succeeded'
            ? { code: 'unavailable', message: 'outcome write lost', retryable: false }
            : undefined,
      },
    });
    const created = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    expect(created._unsafeUnwrap().state).toBe('processing');
    expect((await h.engine.getPaymentRecord(created._unsafeUnwrap().id))._unsafeUnwrap().state).toBe('authorizing');
    expect(snapshots(events).at(-1)).toBe('snapshot {"authorizing":"requested"}');
    expect(summary(events)).not.toContain('event authorization.approved');
  });
});

describe('inspection announces an actor it never saw created (found by a reviewing helper)', () => {
  /** Collects the events and, for each `@xstate.actor`, the actor's snapshot when it was announced. */
  function collectWithStart() {
    const { events, inspect } = collect();
    const starts: unknown[] = [];
    return {
      events,
      starts,
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.actor') starts.push((event.actorRef.getSnapshot() as { value: unknown }).value);
        inspect(event);
      },
    };
  }

  it('a payment created by another engine (instance, or before a restart) is announced before its first step', async () => {
    const creator = makeEngineHarness();
    const created = (
      await creator.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrap();
    const { events, starts, inspect } = collectWithStart();
    const other = makeEngineHarness({ inspect }, 1, { wrapRepository: () => creator.repository });
    expect(
      (
        await other.engine.submitCard({
          paymentId: created.id,
          token: other.hostedToken(created),
          body: cardSubmission('4242424242424242'),
        })
      )._unsafeUnwrap().state,
    ).toBe('succeeded');
    expect(summary(events)).toEqual([
      '@xstate.actor',
      'event card.submitted',
      'action startAuthentication',
      'snapshot "authenticating"',
      'event authentication.not_required',
      'action authorize',
      'snapshot {"authorizing":"requested"}',
      'event authorization.approved',
      'action emitEvent',
      'snapshot "succeeded"',
    ]);
    // Announced where its first step starts: as stored, awaiting the card.
    expect(starts).toEqual(['awaiting_card_data']);
    expect(new Set(events.map((event) => event.actorRef.sessionId))).toEqual(new Set([created.id]));
  });

  it('a create stored though its write could not be confirmed is announced at the next step (the sweeper’s)', async () => {
    const { events, starts, inspect } = collectWithStart();
    let hangInsert = true;
    let failLoads = 0;
    const h = makeEngineHarness({ inspect, timeouts: { storageMs: 20 } }, 0, {
      wrapRepository: (inner) => ({
        ...inner,
        insert: (record, outbox) => {
          const stored = inner.insert(record, outbox);
          if (!hangInsert) return stored;
          hangInsert = false;
          failLoads = 1;
          return new Promise(() => undefined);
        },
        load: (id) =>
          failLoads-- > 0 ? err({ code: 'unavailable', message: 'blip', retryable: true }) : inner.load(id),
      }),
    });
    const lost = await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() });
    expect(lost._unsafeUnwrapErr().code).toBe('unavailable');
    const [stored] = h.repository.snapshot();
    expect(stored?.state).toBe('awaiting_card_data');
    expect(events).toEqual([]);

    h.clock.advance(61 * 60_000);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ expired: 1 });
    expect(summary(events)).toEqual(['@xstate.actor', 'event expiry.due', 'action emitEvent', 'snapshot "expired"']);
    expect(starts).toEqual(['awaiting_card_data']);
    expect(events[0]?.actorRef.sessionId).toBe(stored?.id);
  });

  it('announces each actor once while it keeps it, keeps the ones used last, and re-announces one it let go', () => {
    const events: InspectionEvent[] = [];
    const inspection = createInspection(paymentMachine, (event) => void events.push(event));
    const start = startPayment(paymentMachine, { flow: 'hosted', at: 0 });
    const card = stepPayment(paymentMachine, start, { type: 'card.submitted', at: 1 });
    const actors = (id: string) =>
      events.filter((event) => event.type === '@xstate.actor' && event.actorRef.sessionId === id).length;
    const idOf = (n: number) => `payment_${String(n).padStart(4, '0')}`;

    for (let n = 0; n < INSPECTED_ACTORS; n++) {
      inspection?.started(idOf(n), { type: 'xstate.init' }, start);
    }
    // A step of a kept actor announces nothing more; the first payment is now the one used last.
    inspection?.stepped(idOf(0), { type: 'card.submitted' }, card, start);
    expect(actors(idOf(0))).toBe(1);
    // One more payment: the actor used longest ago (the second payment) is let go, not the first.
    inspection?.started(idOf(INSPECTED_ACTORS), { type: 'xstate.init' }, start);
    inspection?.stepped(idOf(0), { type: 'card.submitted' }, card, start);
    expect(actors(idOf(0))).toBe(1);
    inspection?.stepped(idOf(1), { type: 'card.submitted' }, card, start);
    expect(actors(idOf(1))).toBe(2);
    // Never two announcements in a row for one payment.
    const perPayment = new Map<string, string[]>();
    for (const event of events) {
      const id = event.actorRef.sessionId;
      perPayment.set(id, [...(perPayment.get(id) ?? []), event.type]);
    }
    for (const types of perPayment.values()) {
      expect(types.some((type, index) => type === '@xstate.actor' && types[index - 1] === '@xstate.actor')).toBe(false);
    }
  });
});
