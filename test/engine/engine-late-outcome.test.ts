import { describe, expect, it } from 'vitest';
import type { AuthorizationOutcome, AcquirerError } from '../../src/index.js';
import type { Result } from 'neverthrow';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { directRequest } from '../support/requests.js';
import { MINUTE, PROFILE, VISA, eventTypes, stored } from '../support/engine-helpers.js';

/** A promise resolved by hand. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

// Found by a reviewing helper. The sweeper reconciles an intent once `authorizationStaleAfterMs`
// has passed (a process paused during the acquirer call, a sweeping instance whose clock is ahead).
// When its inquiry's write lands before the late authorization answer, the command's outcome write
// loses; the command answered the intent it had stored ("processing", stored for 24 hours with an
// Idempotency-Key) and logged an error saying the payment was left for reconciliation, while the
// payment had already succeeded.
describe('a late authorization answer that loses to the sweeper’s reconciliation', () => {
  it('answers the payment as reconciled, authorizes once and publishes one outcome', async () => {
    const h = makeEngineHarness();
    const gate = deferred<void>();
    const authorize = h.acquirer.authorize.bind(h.acquirer);
    h.acquirer.authorize = (request) => {
      const answer = authorize(request);
      return gate.promise.then(async (): Promise<Result<AuthorizationOutcome, AcquirerError>> => await answer);
    };
    const creating = h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(VISA) });
    await settle();
    const [intent] = h.repository.snapshot();
    expect(intent?.state).toBe('authorizing');
    const id = intent?.id ?? '';

    // The intent is stale: the sweeper asks the acquirer, which approved, and stores that first.
    h.clock.advance(2 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 1, conflicts: 0 });
    expect((await stored(h, id)).state).toBe('succeeded');

    gate.resolve();
    const created = (await creating)._unsafeUnwrap();
    expect(created.state).toBe('succeeded');
    expect(created.id).toBe(id);
    expect(h.acquirer.authorizeCalls(id)).toBe(1);
    expect(await eventTypes(h, id)).toEqual(['payment.created', 'payment.succeeded']);
    expect(h.logs.filter((log) => log.level === 'error')).toEqual([]);
  });
});
