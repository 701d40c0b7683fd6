import { err } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, IDEMPOTENCY_STALE_AFTER_MS } from '../../adapters/http/index.js';
import type { IdempotencyStore, PaymentRepository } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import {
  engineOver,
  makeApi,
  OPTION_ENTRY_POINTS,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type RunningServer,
} from './support/api-harness.js';
import { post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';
/** The default stale-after limit: 5 minutes. */
const STALE = 5 * 60 * 1000;
const unavailable = { code: 'unavailable', message: 'the idempotency store went away', retryable: true } as const;

/**
 * An idempotency store whose process "dies" on demand: while `dead` is set, `complete` and
 * `release` fail, so the request under way leaves its key in progress, as a request whose
 * process crashed after `begin` does. Records the ids reserved by `begin`.
 */
function crashableStore(inner: IdempotencyStore) {
  const state = { dead: false, reserved: [] as string[] };
  const store: IdempotencyStore = {
    begin: (request) => {
      if (request.reservedId !== undefined) state.reserved.push(request.reservedId);
      return inner.begin(request);
    },
    complete: (request) => (state.dead ? err(unavailable) : inner.complete(request)),
    release: (request) => (state.dead ? err(unavailable) : inner.release(request)),
    purgeExpired: (now) => inner.purgeExpired(now),
  };
  return { store, state };
}

/**
 * A repository whose first insert waits until a second insert arrives, then lands before it:
 * the first request is slow (past the stale limit), not dead, and stores its payment while the
 * retry that took its key over is creating the same one.
 */
function slowFirstInsert(inner: PaymentRepository) {
  let inserts = 0;
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  let first: Promise<unknown> = Promise.resolve();
  const repository: PaymentRepository = {
    ...inner,
    insert: (record, events) => {
      inserts += 1;
      if (inserts === 1) {
        const landed = gate.then(() => inner.insert(record, events));
        first = landed;
        return landed;
      }
      if (inserts === 2) {
        openGate();
        return first.then(() => inner.insert(record, events));
      }
      return inner.insert(record, events);
    },
    update: (record, events) => inner.update(record, events),
    load: (id) => inner.load(id),
  };
  return { repository, inserts: () => inserts };
}

const waitFor = async (condition: () => boolean): Promise<void> => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe.each(SERVER_KINDS)('Idempotency-Key after a crash (stale takeover), served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  let crash: ReturnType<typeof crashableStore>;

  /** The API with a crashable idempotency store and, when given, the engine's repository wrapped. */
  async function start(
    wrap?: (repository: PaymentRepository) => PaymentRepository,
    options: { readonly idempotencyStaleAfterMs?: number } = {},
  ) {
    api = makeApi();
    crash = crashableStore(api.handlerOptions.idempotency);
    const engine = wrap === undefined ? api.engine : engineOver(api, wrap(api.repository));
    server = await serve(kind, {
      ...api,
      handlerOptions: { ...api.handlerOptions, ...options, engine, idempotency: crash.store },
    });
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }
  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  const send = (body: unknown, key: string): Promise<Answer> =>
    post(payments, TOKENS.alphaCompliant, body, { 'idempotency-key': key });

  it('a retry gets 409 until the crashed request is stale, then the payment it stored, authorized once', async () => {
    await start();
    const body = directRequest('4242424242424242');
    crash.state.dead = true;
    // The first request stores and authorizes the payment, and its process dies before the key
    // is settled: its client never learns the answer.
    const lost = await send(body, 'crash-after-charge');
    expect(lost.status).toBe(201);
    crash.state.dead = false;

    api.clock.advance(STALE - 1);
    const early = await send(body, 'crash-after-charge');
    expectProblem(early, 409, 'idempotency_in_progress');

    api.clock.advance(1);
    const retried = await send(body, 'crash-after-charge');
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotency-replayed']).toBeUndefined();
    expect(retried.json.id).toBe(lost.json.id);
    expect(retried.json.state).toBe('succeeded');
    expect(retried.headers['location']).toBe(lost.headers['location']);
    expect(retried.text).toBe(lost.text);
    expect(api.acquirer.authorizations()).toHaveLength(1);
    expect(api.repository.size()).toBe(1);
    // The retry read the payment and created nothing: no second insert, no second 3DS lookup.
    expect(api.calls.counts.get('repository.insert')).toBe(1);
    expect(api.calls.counts.get('threeDS.authenticate')).toBe(1);
    expect(crash.state.reserved).toEqual([lost.json.id, expect.any(String), expect.any(String)]);

    // The takeover's answer is now the key's answer.
    const replayed = await send(body, 'crash-after-charge');
    expect(replayed.text).toBe(retried.text);
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(api.acquirer.authorizations()).toHaveLength(1);
  });

  it('a retry after the stale limit creates the payment under the reserved id when the crashed request stored nothing', async () => {
    await start();
    const body = directRequest('4242424242424242');
    crash.state.dead = true;
    api.repository.injectFailure('insert');
    expectProblem(await send(body, 'crash-before-store'), 503, 'unavailable');
    crash.state.dead = false;
    expect(api.repository.size()).toBe(0);

    expectProblem(await send(body, 'crash-before-store'), 409, 'idempotency_in_progress');
    api.clock.advance(STALE);
    const retried = await send(body, 'crash-before-store');
    expect(retried.status).toBe(201);
    // The id the crashed request reserved with the key, not the one the retry brought.
    const [reserved, , brought] = crash.state.reserved;
    expect(reserved).toMatch(/^payment_[0-9a-f]{32}$/);
    expect(retried.json.id).toBe(reserved);
    expect(retried.json.id).not.toBe(brought);
    expect(retried.json.state).toBe('succeeded');
    expect(retried.headers['location']).toBe(retried.json._links.self.href);
    expect(api.acquirer.authorizations()).toHaveLength(1);
    expect(api.repository.size()).toBe(1);
    expect((await send(body, 'crash-before-store')).text).toBe(retried.text);
  });

  it('after a takeover another body with the key is still 422, and the key is not taken over again while the retry runs', async () => {
    await start();
    crash.state.dead = true;
    const lost = await send(hostedRequest(), 'crash-then-other-body');
    crash.state.dead = false;
    api.clock.advance(STALE);
    expectProblem(await send(hostedRequest({ amount: 5 }), 'crash-then-other-body'), 422, 'idempotency_key_reused');
    const retried = await send(hostedRequest(), 'crash-then-other-body');
    expect(retried.json.id).toBe(lost.json.id);
    expectProblem(await send(hostedRequest({ amount: 5 }), 'crash-then-other-body'), 422, 'idempotency_key_reused');
    expect(api.repository.size()).toBe(1);
  });

  it('a request that was slow, not dead, and stores the payment while the retry creates it: one payment, one authorization, no 500', async () => {
    let slow: ReturnType<typeof slowFirstInsert> | undefined;
    await start((repository) => {
      slow = slowFirstInsert(repository);
      return slow.repository;
    });
    const body = directRequest('4242424242424242');
    const first = send(body, 'slow-not-dead');
    await waitFor(() => slow?.inserts() === 1);
    api.clock.advance(STALE);
    const retried = await send(body, 'slow-not-dead');
    expect(retried.status).toBe(201);
    const original = await first;
    expect(original.status).toBe(201);
    expect(retried.json.id).toBe(original.json.id);
    expect(crash.state.reserved[0]).toBe(original.json.id);
    expect(api.acquirer.authorizations()).toHaveLength(1);
    expect(api.repository.size()).toBe(1);
    // The retry found the id free, tried to insert it and lost to the slow request.
    expect(slow?.inserts()).toBe(2);
    expect(api.logs).toContainEqual(
      expect.objectContaining({ message: 'command failed', fields: expect.objectContaining({ code: 'conflict' }) }),
    );
    // The key answers what the retry answered (the slow request no longer owned it).
    const replayed = await send(body, 'slow-not-dead');
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(replayed.text).toBe(retried.text);
  });

  it('a takeover that cannot read the reserved payment answers 503 and leaves the key to the next stale retry', async () => {
    await start();
    const body = directRequest('4242424242424242');
    crash.state.dead = true;
    const lost = await send(body, 'crash-then-storage-down');
    crash.state.dead = false;
    api.clock.advance(STALE);
    api.repository.injectFailure('load');
    expectProblem(await send(body, 'crash-then-storage-down'), 503, 'unavailable');
    // Not released: a fresh start would reserve another id and could charge the card again.
    expectProblem(await send(body, 'crash-then-storage-down'), 409, 'idempotency_in_progress');
    api.clock.advance(STALE);
    const retried = await send(body, 'crash-then-storage-down');
    expect(retried.status).toBe(201);
    expect(retried.json.id).toBe(lost.json.id);
    expect(api.acquirer.authorizations()).toHaveLength(1);
    expect(api.repository.size()).toBe(1);
  });

  it('a create stored but whose answer was lost, and that could not be read back: 503, the key kept, one payment (found by a reviewer)', async () => {
    // The intent insert lands and answers a lost connection; the confirming read fails too.
    let lostInserts = 1;
    let failedLoads = 0;
    await start((repository) => ({
      ...repository,
      insert: async (record, events) => {
        const written = await repository.insert(record, events);
        if (written.isErr() || lostInserts === 0) return written;
        lostInserts -= 1;
        failedLoads = 1;
        return err({ code: 'unavailable', message: 'Connection terminated', retryable: true });
      },
      load: (id) => {
        if (failedLoads === 0) return repository.load(id);
        failedLoads -= 1;
        return err({ code: 'unavailable', message: 'Connection terminated', retryable: true });
      },
    }));
    const body = directRequest('4242424242424242');
    const first = await send(body, 'stored-answer-lost');
    expectProblem(first, 503, 'unavailable');
    expect(first.headers['retry-after']).toBe('1');
    expect(first.json.detail).toMatch(/may have been created.*same Idempotency-Key/);
    expect(api.repository.size()).toBe(1);
    const [reserved] = crash.state.reserved;
    expect(api.repository.snapshot().map((payment) => payment.id)).toEqual([reserved]);

    // Not released: a retry does not reserve a new id and create a second payment.
    expectProblem(await send(body, 'stored-answer-lost'), 409, 'idempotency_in_progress');
    expect(api.repository.size()).toBe(1);

    api.clock.advance(STALE);
    const retried = await send(body, 'stored-answer-lost');
    expect(retried.status).toBe(201);
    expect(retried.json.id).toBe(reserved);
    expect(api.repository.size()).toBe(1);
    // The intent was stored but the acquirer never asked: the sweeper's inquiry settles it.
    expect(api.acquirer.authorizations()).toEqual([]);
    const replayed = await send(body, 'stored-answer-lost');
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(replayed.text).toBe(retried.text);
  });

  it('a create that storage did not take (the read back says so) still releases the key: the retry runs at once', async () => {
    await start();
    api.repository.injectFailure('insert');
    expectProblem(await send(hostedRequest(), 'not-stored'), 503, 'unavailable');
    const retried = await send(hostedRequest(), 'not-stored');
    expect(retried.status).toBe(201);
    expect(api.repository.size()).toBe(1);
  });

  it('honours idempotencyStaleAfterMs', async () => {
    await start(undefined, { idempotencyStaleAfterMs: 1000 });
    crash.state.dead = true;
    const lost = await send(hostedRequest(), 'short-limit');
    crash.state.dead = false;
    api.clock.advance(999);
    expectProblem(await send(hostedRequest(), 'short-limit'), 409, 'idempotency_in_progress');
    api.clock.advance(1);
    expect((await send(hostedRequest(), 'short-limit')).json.id).toBe(lost.json.id);
  });
});

describe('idempotencyStaleAfterMs', () => {
  it('defaults to 5 minutes and must be a whole number of milliseconds of at least 1', () => {
    expect(IDEMPOTENCY_STALE_AFTER_MS).toBe(STALE);
    const { handlerOptions } = makeApi();
    for (const bad of [0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createFetchHandler({ ...handlerOptions, idempotencyStaleAfterMs: bad })).toThrow(RangeError);
    }
    expect(() => createFetchHandler({ ...handlerOptions, idempotencyStaleAfterMs: 1 })).not.toThrow();
  });
});

describe('idempotencyTtlMs (found by a reviewer: not checked at all)', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const entryPoints = OPTION_ENTRY_POINTS;

  it.each(entryPoints)(
    '%s: must be a whole number of milliseconds of at least 1, or a RangeError that names it',
    (_name, create) => {
      const { handlerOptions } = makeApi();
      for (const bad of [0, -1, 0.5, DAY + 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
        expect(() => create({ ...handlerOptions, idempotencyTtlMs: bad }), String(bad)).toThrow(
          new RangeError(`idempotencyTtlMs needs a whole number of milliseconds of at least 1 (got ${String(bad)})`),
        );
      }
      expect(() => create({ ...handlerOptions, idempotencyTtlMs: DAY })).not.toThrow();
      expect(() => create({ ...handlerOptions, idempotencyTtlMs: Number.MAX_SAFE_INTEGER })).not.toThrow();
    },
  );

  it('must be longer than idempotencyStaleAfterMs, given or by default: else a RangeError that says why', () => {
    const { handlerOptions } = makeApi();
    const refused = [
      { idempotencyTtlMs: 1000 },
      { idempotencyTtlMs: STALE },
      { idempotencyTtlMs: 1000, idempotencyStaleAfterMs: 2000 },
      { idempotencyTtlMs: 2000, idempotencyStaleAfterMs: 2000 },
      { idempotencyStaleAfterMs: DAY },
      { idempotencyStaleAfterMs: Number.MAX_SAFE_INTEGER },
    ];
    for (const limits of refused) {
      expect(() => createFetchHandler({ ...handlerOptions, ...limits }), JSON.stringify(limits)).toThrow(
        /^idempotencyTtlMs \(.+\) must be longer than idempotencyStaleAfterMs \(\d+\): a key must not be forgotten before its crashed request is presumed dead$/,
      );
      expect(() => createFetchHandler({ ...handlerOptions, ...limits })).toThrow(RangeError);
    }
    const accepted = [
      { idempotencyTtlMs: STALE + 1 },
      { idempotencyTtlMs: 2001, idempotencyStaleAfterMs: 2000 },
      { idempotencyStaleAfterMs: DAY - 1 },
      { idempotencyTtlMs: 2 * DAY, idempotencyStaleAfterMs: DAY },
    ];
    for (const limits of accepted) {
      expect(() => createFetchHandler({ ...handlerOptions, ...limits }), JSON.stringify(limits)).not.toThrow();
    }
  });

  it('why: a key that expires before its attempt is stale begins afresh, with a new payment id', async () => {
    // What the check prevents, shown with the store: the key expires before the attempt is stale.
    const { handlerOptions } = makeApi();
    const begin = (now: number, reservedId: string) =>
      handlerOptions.idempotency.begin({
        clientId: 'c',
        key: 'k',
        fingerprint: 'f',
        now,
        ttlMs: 1000,
        reservedId,
        staleAfterMs: STALE,
      });
    expect((await begin(0, 'payment_first'))._unsafeUnwrap()).toMatchObject({ kind: 'started' });
    expect((await begin(1000, 'payment_second'))._unsafeUnwrap()).toEqual({
      kind: 'started',
      reservedId: 'payment_second',
      takeover: false,
    });
  });
});
