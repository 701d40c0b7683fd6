import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdempotencyBegin, IdempotencyStore, StoredResponse } from '../../src/ports/idempotency-store.js';
import { expectOk } from './payment-repository.contract.js';
import { T0, uniqueHex } from './fixtures.js';

/** An idempotency store under test and how to dispose of it. */
export interface IdempotencyStoreHarness {
  readonly store: IdempotencyStore;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60 * 1000;

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
 * - `release` of a completed key keeps its answer.
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

    it('starts a new key, then reports it in progress to the same request', async () => {
      expect(await begin('k1', 'fp-a')).toEqual({ kind: 'started' });
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
      expect(await begin('k1', 'fp-b')).toEqual({ kind: 'started' });
    });

    it('scopes keys per client', async () => {
      const other = `client_${uniqueHex()}`;
      expect(await begin('shared', 'fp-a')).toEqual({ kind: 'started' });
      expect(await begin('shared', 'fp-b', T0, other)).toEqual({ kind: 'started' });
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
      expect(await begin('running', 'fp-a', T0 + DAY)).toEqual({ kind: 'started' });

      await begin('done', 'fp-a');
      await expectOk(store.complete({ clientId, key: 'done', response: response() }));
      expect((await begin('done', 'fp-a', T0 + DAY - 1)).kind).toBe('completed');
      expect(await begin('done', 'fp-b', T0 + DAY)).toEqual({ kind: 'started' });
    });

    it('honours the ttlMs given to begin', async () => {
      await begin('short', 'fp-a', T0, clientId, 1000);
      expect(await begin('short', 'fp-a', T0 + 999)).toEqual({ kind: 'in_progress' });
      expect(await begin('short', 'fp-a', T0 + 1000)).toEqual({ kind: 'started' });
    });

    it('purges expired entries only, and says how many', async () => {
      await begin('old-1', 'fp');
      await begin('old-2', 'fp');
      await expectOk(store.complete({ clientId, key: 'old-2', response: response() }));
      await begin('fresh', 'fp', T0 + DAY / 2);
      const purged = await expectOk(store.purgeExpired(T0 + DAY));
      expect(purged).toBeGreaterThanOrEqual(2);
      expect(await begin('fresh', 'fp', T0 + DAY)).toEqual({ kind: 'in_progress' });
      expect(await begin('old-2', 'fp-other', T0 + DAY)).toEqual({ kind: 'started' });
    });

    it('completing or releasing a key that is not in progress changes nothing', async () => {
      await expectOk(store.complete({ clientId, key: 'never-begun', response: response() }));
      await expectOk(store.release({ clientId, key: 'never-begun' }));
      expect(await begin('never-begun', 'fp')).toEqual({ kind: 'started' });

      await expectOk(store.complete({ clientId, key: 'never-begun', response: response({ body: 'first' }) }));
      await expectOk(store.complete({ clientId, key: 'never-begun', response: response({ body: 'second' }) }));
      await expectOk(store.release({ clientId, key: 'never-begun' }));
      const replay = await begin('never-begun', 'fp');
      expect(replay.kind === 'completed' && replay.response.body).toBe('first');
    });

    it('accepts keys of 1 to 255 characters of any printable ASCII', async () => {
      for (const key of ['a', 'k'.repeat(255), ' spaced key ', '"quoted";\\,%00']) {
        expect(await begin(key, 'fp')).toEqual({ kind: 'started' });
      }
    });
  });
}
