import type { InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
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
});
