import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdempotencyBegin, IdempotencyStore, StoredResponse } from '../../src/ports/idempotency-store.js';
import { expectOk } from './payment-repository.contract.js';
import { paymentId, T0, uniqueHex } from './fixtures.js';

/** An idempotency store under test and how to dispose of it. */
export interface IdempotencyStoreHarness {
  readonly store: IdempotencyStore;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60 * 1000;
/** The stale-after limit the reservation tests give `begin`. */
const STALE = 5 * 60 * 1000;

/** What `begin` answers a request that starts a key without reserving an id. */
const STARTED = { kind: 'started', reservedId: null, takeover: false } as const;

const response = (overrides: Partial<StoredResponse> = {}): StoredResponse => ({
  status: 201,
  headers: {
    'content-type': 'application/json',
    location: '/v1/partners/partner_1/profiles/profile_1/payments/payment_1',
    'cache-control': 'no-store',
  },
  body: '{"id":"payment_1","description":"Bestellung für €12 — 👍 \\u2028 \\"quoted\\"","amount":1200}',
  ...overrides,
});

/**
 * Everything the `IdempotencyStore` port promises (decisions.md section 6), for any adapter.
 * `makeHarness` is called before every test; tests use fresh client ids, so a store shared
 * between tests (one database) is fine. The suite uses the port only.
 *
 * Beyond the port's doc comments it pins down:
 * - a different fingerprint is `mismatch` even while the first request is still in progress;
 * - `complete` and `release` of a key that is not in progress change nothing and succeed;
 * - `release` of a completed key keeps its answer;
 * - a stale attempt is taken over only by a `begin` that gives `staleAfterMs`, and only when it
 *   reserved an id; the takeover restarts the entry's time (staleness and `ttlMs`);
 * - `complete` and `release` naming an attempt that was taken over (`startedAt`) change nothing.
 */
export function idempotencyStoreContract(name: string, makeHarness: () => Promise<IdempotencyStoreHarness>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let harness: IdempotencyStoreHarness;
    let store: IdempotencyStore;
    let clientId: string;

    beforeEach(async () => {
      harness = await makeHarness();
      store = harness.store;
      clientId = `client_${uniqueHex()}`;
    });

    afterEach(async () => {
      await harness.close();
    });

    const begin = (
      key: string,
      fingerprint: string,
      now = T0,
      client = clientId,
      ttlMs = DAY,
    ): Promise<IdempotencyBegin> => expectOk(store.begin({ clientId: client, key, fingerprint, now, ttlMs }));

    /** A `begin` as the HTTP API makes it: with an id to reserve and a stale-after limit. */
    const reserve = (
      key: string,
      fingerprint: string,
      now: number,
      reservedId: string,
      staleAfterMs = STALE,
    ): Promise<IdempotencyBegin> =>
      expectOk(store.begin({ clientId, key, fingerprint, now, ttlMs: DAY, reservedId, staleAfterMs }));

    it('starts a new key, then reports it in progress to the same request', async () => {
      expect(await begin('k1', 'fp-a')).toEqual(STARTED);
      expect(await begin('k1', 'fp-a', T0 + 1000)).toEqual({ kind: 'in_progress' });
    });

    it('reports a mismatch for another fingerprint, in progress or completed', async () => {
      await begin('k1', 'fp-a');
      expect(await begin('k1', 'fp-b')).toEqual({ kind: 'mismatch' });
      await expectOk(store.complete({ clientId, key: 'k1', response: response() }));
      expect(await begin('k1', 'fp-b')).toEqual({ kind: 'mismatch' });
    });

    it('replays a completed answer exactly: status, headers and body', async () => {
      await begin('k1', 'fp-a');
      const stored = response();
      await expectOk(store.complete({ clientId, key: 'k1', response: stored }));
      const again = await begin('k1', 'fp-a', T0 + 60_000);
      expect(again).toEqual({ kind: 'completed', response: stored });
      if (again.kind === 'completed') {
        expect(again.response.body).toBe(stored.body);
        expect(again.response.headers).toEqual(stored.headers);
      }
    });

    it('keeps what was stored, whatever the caller does with its objects afterwards', async () => {
      await begin('k1', 'fp-a');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      await expectOk(store.complete({ clientId, key: 'k1', response: { status: 201, headers, body: '{}' } }));
      headers['content-type'] = 'text/plain';
      expect(await begin('k1', 'fp-a')).toEqual({
        kind: 'completed',
        response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{}' },
      });
    });

    it('forgets a released key: the next request starts again, with any fingerprint', async () => {
      await begin('k1', 'fp-a');
      await expectOk(store.release({ clientId, key: 'k1' }));
      expect(await begin('k1', 'fp-b')).toEqual(STARTED);
    });

    it('scopes keys per client', async () => {
      const other = `client_${uniqueHex()}`;
      expect(await begin('shared', 'fp-a')).toEqual(STARTED);
      expect(await begin('shared', 'fp-b', T0, other)).toEqual(STARTED);
      await expectOk(store.complete({ clientId: other, key: 'shared', response: response({ status: 400 }) }));
      expect(await begin('shared', 'fp-a')).toEqual({ kind: 'in_progress' });
    });

    it('of concurrent begins with one key, exactly one starts', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => begin('race', 'fp-a')));
      expect(results.filter((result) => result.kind === 'started')).toHaveLength(1);
      expect(results.filter((result) => result.kind === 'in_progress')).toHaveLength(19);
    });

    it('keeps an entry for ttlMs from its begin, in progress or completed', async () => {
      await begin('running', 'fp-a');
      expect(await begin('running', 'fp-a', T0 + DAY - 1)).toEqual({ kind: 'in_progress' });
      expect(await begin('running', 'fp-a', T0 + DAY)).toEqual(STARTED);

      await begin('done', 'fp-a');
      await expectOk(store.complete({ clientId, key: 'done', response: response() }));
      expect((await begin('done', 'fp-a', T0 + DAY - 1)).kind).toBe('completed');
      expect(await begin('done', 'fp-b', T0 + DAY)).toEqual(STARTED);
    });

    it('honours the ttlMs given to begin', async () => {
      await begin('short', 'fp-a', T0, clientId, 1000);
      expect(await begin('short', 'fp-a', T0 + 999)).toEqual({ kind: 'in_progress' });
      expect(await begin('short', 'fp-a', T0 + 1000)).toEqual(STARTED);
    });

    it('purges expired entries only, and says how many', async () => {
      await begin('old-1', 'fp');
      await begin('old-2', 'fp');
      await expectOk(store.complete({ clientId, key: 'old-2', response: response() }));
      await begin('fresh', 'fp', T0 + DAY / 2);
      const purged = await expectOk(store.purgeExpired(T0 + DAY));
      expect(purged).toBeGreaterThanOrEqual(2);
      expect(await begin('fresh', 'fp', T0 + DAY)).toEqual({ kind: 'in_progress' });
      expect(await begin('old-2', 'fp-other', T0 + DAY)).toEqual(STARTED);
    });

    it('completing or releasing a key that is not in progress changes nothing', async () => {
      await expectOk(store.complete({ clientId, key: 'never-begun', response: response() }));
      await expectOk(store.release({ clientId, key: 'never-begun' }));
      expect(await begin('never-begun', 'fp')).toEqual(STARTED);

      await expectOk(store.complete({ clientId, key: 'never-begun', response: response({ body: 'first' }) }));
      await expectOk(store.complete({ clientId, key: 'never-begun', response: response({ body: 'second' }) }));
      await expectOk(store.release({ clientId, key: 'never-begun' }));
      const replay = await begin('never-begun', 'fp');
      expect(replay.kind === 'completed' && replay.response.body).toBe('first');
    });

    it('accepts keys of 1 to 255 characters of any printable ASCII', async () => {
      for (const key of ['a', 'k'.repeat(255), ' spaced key ', '"quoted";\\,%00']) {
        expect(await begin(key, 'fp')).toEqual(STARTED);
      }
    });

    describe('reserved ids and stale attempts', () => {
      it('stores the reserved id with the key and gives it to the request that starts it', async () => {
        const reserved = paymentId();
        expect(await reserve('k1', 'fp-a', T0, reserved)).toEqual({
          kind: 'started',
          reservedId: reserved,
          takeover: false,
        });
        expect(await reserve('k1', 'fp-a', T0 + 1000, paymentId())).toEqual({ kind: 'in_progress' });
      });

      it('answers in_progress until the attempt is staleAfterMs old, then hands the same reserved id over', async () => {
        const reserved = paymentId();
        await reserve('k1', 'fp-a', T0, reserved);
        expect(await reserve('k1', 'fp-a', T0 + STALE - 1, paymentId())).toEqual({ kind: 'in_progress' });
        expect(await reserve('k1', 'fp-a', T0 + STALE, paymentId())).toEqual({
          kind: 'started',
          reservedId: reserved,
          takeover: true,
        });
      });

      it('a takeover owns the key afresh: in progress for another staleAfterMs, then taken over again', async () => {
        const reserved = paymentId();
        await reserve('k1', 'fp-a', T0, reserved);
        const taken = T0 + STALE + 1234;
        expect(await reserve('k1', 'fp-a', taken, paymentId())).toMatchObject({ takeover: true });
        expect(await reserve('k1', 'fp-a', taken + STALE - 1, paymentId())).toEqual({ kind: 'in_progress' });
        expect(await reserve('k1', 'fp-a', taken + STALE, paymentId())).toEqual({
          kind: 'started',
          reservedId: reserved,
          takeover: true,
        });
      });

      it('of concurrent takeovers of a stale attempt exactly one wins', async () => {
        const reserved = paymentId();
        await reserve('race', 'fp-a', T0, reserved);
        const results = await Promise.all(
          Array.from({ length: 20 }, () => reserve('race', 'fp-a', T0 + STALE + 1, paymentId())),
        );
        expect(results.filter((result) => result.kind === 'started')).toEqual([
          { kind: 'started', reservedId: reserved, takeover: true },
        ]);
        expect(results.filter((result) => result.kind === 'in_progress')).toHaveLength(19);
      });

      it('another fingerprint is a mismatch, before and after a takeover, and never takes over', async () => {
        await reserve('k1', 'fp-a', T0, paymentId());
        expect(await reserve('k1', 'fp-b', T0 + STALE, paymentId())).toEqual({ kind: 'mismatch' });
        expect(await reserve('k1', 'fp-a', T0 + STALE, paymentId())).toMatchObject({ takeover: true });
        expect(await reserve('k1', 'fp-b', T0 + STALE + 1, paymentId())).toEqual({ kind: 'mismatch' });
        expect(await reserve('k1', 'fp-b', T0 + 3 * STALE, paymentId())).toEqual({ kind: 'mismatch' });
      });

      it('a completed entry is replayed, never taken over', async () => {
        await reserve('k1', 'fp-a', T0, paymentId());
        await expectOk(store.complete({ clientId, key: 'k1', response: response(), startedAt: T0 }));
        expect(await reserve('k1', 'fp-a', T0 + 2 * STALE, paymentId())).toEqual({
          kind: 'completed',
          response: response(),
        });
      });

      it('never takes over an entry that reserved no id, nor for a begin without staleAfterMs: in progress until it expires', async () => {
        await begin('none', 'fp-a');
        expect(await reserve('none', 'fp-a', T0 + DAY - 1, paymentId())).toEqual({ kind: 'in_progress' });
        await reserve('no-limit', 'fp-a', T0, paymentId());
        expect(await begin('no-limit', 'fp-a', T0 + DAY - 1)).toEqual({ kind: 'in_progress' });
      });

      it('an expired entry starts afresh with the new reserved id, as before reservations', async () => {
        const second = paymentId();
        await reserve('k1', 'fp-a', T0, paymentId());
        expect(await reserve('k1', 'fp-a', T0 + DAY, second)).toEqual({
          kind: 'started',
          reservedId: second,
          takeover: false,
        });
        await reserve('k2', 'fp-a', T0, paymentId());
        await expectOk(store.complete({ clientId, key: 'k2', response: response(), startedAt: T0 }));
        const third = paymentId();
        expect(await reserve('k2', 'fp-b', T0 + DAY, third)).toEqual({
          kind: 'started',
          reservedId: third,
          takeover: false,
        });
      });

      it('a takeover keeps the entry for ttlMs from the takeover', async () => {
        const reserved = paymentId();
        await reserve('k1', 'fp-a', T0, reserved);
        const taken = T0 + STALE;
        await reserve('k1', 'fp-a', taken, paymentId());
        await expectOk(store.complete({ clientId, key: 'k1', response: response(), startedAt: taken }));
        expect((await reserve('k1', 'fp-a', T0 + DAY, paymentId())).kind).toBe('completed');
        expect((await reserve('k1', 'fp-a', taken + DAY - 1, paymentId())).kind).toBe('completed');
        expect(await reserve('k1', 'fp-b', taken + DAY, paymentId())).toMatchObject({
          kind: 'started',
          takeover: false,
        });
      });

      it('the attempt that was taken over can neither complete nor release the key; its successor can', async () => {
        const reserved = paymentId();
        await reserve('k1', 'fp-a', T0, reserved);
        const taken = T0 + STALE;
        await reserve('k1', 'fp-a', taken, paymentId());
        await expectOk(store.complete({ clientId, key: 'k1', response: response({ body: 'stale' }), startedAt: T0 }));
        await expectOk(store.release({ clientId, key: 'k1', startedAt: T0 }));
        expect(await reserve('k1', 'fp-a', taken + 1, paymentId())).toEqual({ kind: 'in_progress' });
        await expectOk(store.complete({ clientId, key: 'k1', response: response(), startedAt: taken }));
        expect(await reserve('k1', 'fp-a', taken + 2, paymentId())).toEqual({
          kind: 'completed',
          response: response(),
        });

        await reserve('k2', 'fp-a', T0, paymentId());
        await reserve('k2', 'fp-a', taken, paymentId());
        await expectOk(store.release({ clientId, key: 'k2', startedAt: taken }));
        const fresh = paymentId();
        expect(await reserve('k2', 'fp-b', taken + 1, fresh)).toEqual({
          kind: 'started',
          reservedId: fresh,
          takeover: false,
        });
      });

      it('complete and release by the attempt that owns the key work as without startedAt', async () => {
        await reserve('done', 'fp-a', T0, paymentId());
        await expectOk(store.complete({ clientId, key: 'done', response: response(), startedAt: T0 }));
        expect((await reserve('done', 'fp-a', T0 + 1, paymentId())).kind).toBe('completed');
        await reserve('gone', 'fp-a', T0, paymentId());
        await expectOk(store.release({ clientId, key: 'gone', startedAt: T0 }));
        expect(await reserve('gone', 'fp-b', T0 + 1, paymentId())).toMatchObject({ kind: 'started', takeover: false });
      });

      it('a staleAfterMs further back than any date means never stale: no takeover, no failure (found by a reviewer)', async () => {
        for (const staleAfterMs of [9e15, Number.MAX_SAFE_INTEGER]) {
          const key = `never-stale-${staleAfterMs}`;
          const reserved = paymentId();
          expect(await reserve(key, 'fp-a', T0, reserved, staleAfterMs)).toEqual({
            kind: 'started',
            reservedId: reserved,
            takeover: false,
          });
          expect(await reserve(key, 'fp-a', T0 + DAY - 1, paymentId(), staleAfterMs)).toEqual({ kind: 'in_progress' });
          await expectOk(store.complete({ clientId, key, response: response(), startedAt: T0 }));
          expect((await reserve(key, 'fp-a', T0 + 1, paymentId(), staleAfterMs)).kind).toBe('completed');
        }
      });
    });

    it('a ttlMs beyond any date keeps the entry (for ever, in effect), without failing (found by a reviewer)', async () => {
      expect(await begin('kept', 'fp-a', T0, clientId, Number.MAX_SAFE_INTEGER)).toEqual(STARTED);
      await expectOk(store.complete({ clientId, key: 'kept', response: response() }));
      const later = T0 + 1000 * 365 * DAY;
      await expectOk(store.purgeExpired(later));
      expect(await begin('kept', 'fp-a', later)).toEqual({ kind: 'completed', response: response() });
    });
  });
}
