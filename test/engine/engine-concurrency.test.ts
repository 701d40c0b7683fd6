import { describe, expect, it } from 'vitest';
import type { ChallengeResult, Payment, PaymentError, RepositoryError, ThreeDSError } from '../../src/index.js';
import type { Result } from 'neverthrow';
import type { HarnessAdapterOptions } from '../support/engine-harness.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission } from '../support/requests.js';
import {
  CHALLENGE_CARD,
  MINUTE,
  SECOND,
  VISA,
  createDirect,
  createHosted,
  eventTypes,
  stored,
} from '../support/engine-helpers.js';

/** Splits results into the one that succeeded and the errors of the others; fails unless exactly one succeeded. */
function exactlyOneWinner(results: readonly Result<Payment, PaymentError>[]): {
  winner: Payment;
  losers: PaymentError[];
} {
  const winners = results.filter((result) => result.isOk()).map((result) => result._unsafeUnwrap());
  const losers = results.filter((result) => result.isErr()).map((result) => result._unsafeUnwrapErr());
  expect(winners).toHaveLength(1);
  const [winner] = winners;
  if (winner === undefined) throw new Error('no winner');
  return { winner, losers };
}

describe('concurrent hosted submissions', () => {
  it.each([
    ['an acquirer with latency', { acquirer: { latencyMs: 20 } }],
    ['a 3DS server with latency', { threeDS: { latencyMs: 20 } }],
    ['no latency', {}],
  ] as const)('exactly one of two simultaneous submits succeeds (%s)', async (_, adapters: HarnessAdapterOptions) => {
    const h = makeEngineHarness({}, 0, adapters);
    const payment = await createHosted(h);
    const submit = () =>
      h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) });
    const { winner, losers } = exactlyOneWinner(await Promise.all([submit(), submit()]));
    expect(winner.state).toBe('succeeded');
    for (const error of losers) expect(['conflict', 'invalid_state']).toContain(error.code);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('succeeded');
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('five simultaneous submits with different cards: one authorization, with the winning card', async () => {
    const h = makeEngineHarness({}, 0, { acquirer: { latencyMs: 10 } });
    const payment = await createHosted(h);
    const cards = [VISA, '5555555555554444', '378282246310005', '4000000000000002', '4000000000009995'];
    const results = await Promise.all(
      cards.map((number) =>
        h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(number) }),
      ),
    );
    const { winner, losers } = exactlyOneWinner(results);
    expect(losers).toHaveLength(4);
    for (const error of losers) expect(['conflict', 'invalid_state']).toContain(error.code);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    const [authorization] = h.acquirer.authorizations();
    expect(winner.creditcard?.card.last4).toBe(authorization?.card.last4);
    expect((await stored(h, payment.id)).card?.last4).toBe(authorization?.card.last4);
  });

  it('a submit racing the sweeper at the deadline: expired, nothing authorized', async () => {
    const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 10 } });
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE);
    const [submitted, swept] = await Promise.all([
      h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) }),
      h.engine.sweep(),
    ]);
    expect(swept.isOk()).toBe(true);
    if (submitted.isOk()) expect(submitted.value.state).toBe('expired');
    else expect(submitted.error.code).toBe('conflict');
    expect((await stored(h, payment.id)).state).toBe('expired');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.expired']);
  });

  it('a submit in time whose 3DS outlasts the deadline: either it or the sweeper wins, never both', async () => {
    const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 30 } });
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE - 1);
    const submitting = h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(VISA),
    });
    // While 3DS runs, the deadline passes and the sweeper runs.
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.clock.advance(1);
    const report = (await h.engine.sweep())._unsafeUnwrap();
    const submitted = await submitting;
    const record = await stored(h, payment.id);
    if (report.expired === 1) {
      // Today's engine: nothing is stored while 3DS runs, so the sweeper expires the payment
      // and the submission's intent commit loses.
      expect(submitted._unsafeUnwrapErr().code).toBe('conflict');
      expect(record.state).toBe('expired');
      expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    } else {
      // An engine that claims the payment before 3DS lets the in-time submission finish.
      expect(submitted._unsafeUnwrap().state).toBe('succeeded');
      expect(record.state).toBe('succeeded');
      expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    }
    const types = await eventTypes(h, payment.id);
    expect(types.filter((type) => type !== 'payment.created')).toHaveLength(1);
  });

  // Regression: both submits run 3DS before either commits, and the engine keeps the transaction
  // of the submit whose write won. When the sandbox 3DS server voided a payment's earlier
  // challenge on a second lookup, the cardholder was sent to a challenge that could no longer be
  // completed. Every lookup is now its own transaction.
  it('two simultaneous submits of a challenge card leave a challenge that can be completed', async () => {
    const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 5 } });
    const payment = await createHosted(h);
    const submit = () =>
      h.engine.submitCard({
        paymentId: payment.id,
        token: h.hostedToken(payment),
        body: cardSubmission(CHALLENGE_CARD),
      });
    const { winner } = exactlyOneWinner(await Promise.all([submit(), submit()]));
    expect(winner.next?.redirect).toBeDefined();
    const record = await stored(h, payment.id);
    expect((await h.threeDS.challenge(payment.id, record.threeDS?.transactionId ?? ''))._unsafeUnwrap()).not.toBeNull();
    const done = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    expect(done._unsafeUnwrap().state).toBe('succeeded');
  });
});

describe('concurrent challenge completions', () => {
  it('accept and refuse at once: exactly one wins and the state agrees with it', async () => {
    for (const order of [
      ['authorise', 'refuse'],
      ['refuse', 'authorise'],
    ] as const) {
      const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 5 }, acquirer: { latencyMs: 5 } });
      const payment = await createDirect(h, CHALLENGE_CARD);
      const answers = await Promise.all(order.map((decision) => h.challengeAnswer(payment.id, decision)));
      const results = await Promise.all(answers.map((answer) => h.engine.completeChallenge(answer)));
      const { winner, losers } = exactlyOneWinner(results);
      for (const error of losers) expect(['conflict', 'invalid_state', 'validation_failed']).toContain(error.code);
      const won = order[results.findIndex((result) => result.isOk())];
      const record = await stored(h, payment.id);
      if (won === 'authorise') {
        expect(winner.state).toBe('succeeded');
        expect(record.state).toBe('succeeded');
        expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
      } else {
        expect(winner).toMatchObject({ state: 'failed', failure_reason: 'authentication_refused' });
        expect(record.state).toBe('failed');
        expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
      }
      expect(h.cardVault.size()).toBe(0);
      const types = await eventTypes(h, payment.id);
      expect(types.filter((type) => type !== 'payment.created' && type !== 'payment.action_required')).toHaveLength(1);
    }
  });

  it('the same accepted answer posted twice at once: one success, one authorization', async () => {
    const h = makeEngineHarness({}, 0, { acquirer: { latencyMs: 10 } });
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    const { winner } = exactlyOneWinner(
      await Promise.all([h.engine.completeChallenge(answer), h.engine.completeChallenge(answer)]),
    );
    expect(winner.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('an accept racing the sweeper after the deadline: expired, never authorized', async () => {
    const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 5 } });
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    h.clock.advance(10 * MINUTE);
    const [completed, swept] = await Promise.all([h.engine.completeChallenge(answer), h.engine.sweep()]);
    const report = swept._unsafeUnwrap();
    if (completed.isOk()) expect(completed.value.state).toBe('expired');
    else expect(['conflict', 'invalid_state']).toContain(completed.error.code);
    expect(report.expired + (completed.isOk() ? 1 : 0)).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(h.cardVault.size()).toBe(0);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.action_required', 'payment.expired']);
  });

  it('an accept racing the sweeper before the deadline: the sweeper leaves it alone', async () => {
    const h = makeEngineHarness({}, 0, { threeDS: { latencyMs: 5 } });
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    h.clock.advance(10 * MINUTE - 1);
    const [completed, swept] = await Promise.all([h.engine.completeChallenge(answer), h.engine.sweep()]);
    expect(completed._unsafeUnwrap().state).toBe('succeeded');
    expect(swept._unsafeUnwrap().expired).toBe(0);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  // Regression: a 3DS server may answer the same challenge result more than once (the port does
  // not say it is single-use; browsers and ACSs re-post). The duplicate used to find the vault
  // already emptied by the first completion, conclude the card was lost and fail the payment when
  // its write landed before the first completion's intent commit. The card is now taken only
  // after the intent commit, so only the winner touches it.
  it('a duplicate completion never turns an accepted challenge into a failure', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    const resolve = h.threeDS.resolveChallenge.bind(h.threeDS);
    let first: Promise<Result<ChallengeResult, ThreeDSError>> | undefined;
    h.threeDS.resolveChallenge = (request) => (first ??= Promise.resolve(resolve(request)));
    // The intent commit (a write of state `authorizing`) is a little slower than other writes.
    const update = h.repository.update.bind(h.repository);
    h.repository.update = (record, events) =>
      record.state === 'authorizing'
        ? new Promise<Result<void, RepositoryError>>((done) => setTimeout(() => done(update(record, events)), 20))
        : update(record, events);

    const results = await Promise.all([h.engine.completeChallenge(answer), h.engine.completeChallenge(answer)]);
    const record = await stored(h, payment.id);
    expect(results.some((result) => result.isOk() && result.value.state === 'succeeded')).toBe(true);
    expect(record.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });
});

describe('concurrent sweepers', () => {
  it('two sweeps expiring the same payments: each expired once, one event each', async () => {
    const h = makeEngineHarness();
    const payments = [await createHosted(h), await createHosted(h), await createDirect(h, CHALLENGE_CARD)];
    h.clock.advance(60 * MINUTE);
    const reports = (await Promise.all([h.engine.sweep(), h.engine.sweep(), h.engine.sweep()])).map((r) =>
      r._unsafeUnwrap(),
    );
    expect(reports.reduce((sum, report) => sum + report.expired, 0)).toBe(3);
    for (const payment of payments) {
      const record = await stored(h, payment.id);
      expect(record.state).toBe('expired');
      expect(record.version).toBe(2);
      expect((await eventTypes(h, payment.id)).filter((type) => type === 'payment.expired')).toHaveLength(1);
    }
  });

  it('two sweeps reconciling the same unknown authorization: one succeeded event, no second authorization', async () => {
    const h = makeEngineHarness({}, 0, { acquirer: { latencyMs: 5 } });
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, VISA);
    h.clock.advance(10 * SECOND);
    const reports = (await Promise.all([h.engine.sweep(), h.engine.sweep()])).map((r) => r._unsafeUnwrap());
    expect(reports.reduce((sum, report) => sum + report.reconciled, 0)).toBe(1);
    expect(reports.reduce((sum, report) => sum + report.conflicts, 0)).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
    // A lost race is not an error worth a warning.
    expect(h.logs.filter((log) => log.level === 'warn')).toEqual([]);
  });

  it('simultaneous deliveries publish every event exactly once', async () => {
    const h = makeEngineHarness();
    for (let i = 0; i < 5; i++) await createDirect(h, VISA);
    const delivered = await Promise.all([h.engine.deliverEvents(), h.engine.deliverEvents(), h.engine.deliverEvents()]);
    expect(delivered.reduce((sum, result) => sum + result._unsafeUnwrap(), 0)).toBe(10);
    const ids = h.events.events().map((event) => event.id);
    expect(new Set(ids).size).toBe(10);
  });
});
