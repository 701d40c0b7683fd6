import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNodeListener } from '../../../adapters/http/index.js';
import type { CredentialProvisioning, SandboxConfig } from '../../../adapters/memory/index.js';
import type { Clock } from '../../../src/ports/clock.js';
import type { CredentialStore } from '../../../src/ports/credential-store.js';
import type { IdempotencyStore } from '../../../src/ports/idempotency-store.js';
import { expectOk } from '../../contracts/payment-repository.contract.js';
import { hostedRequest } from '../../support/requests.js';
import { CONFIG, makeApi, TOKENS, type ApiHarness } from './api-harness.js';
import { get, post, type Answer } from './client.js';

/** The stores a rotation test runs the API on. */
export interface RotationStores {
  /** Holds exactly `config`, and judges expiry by `clock`. */
  readonly credentials: CredentialStore & CredentialProvisioning;
  /** Default: the harness's in-memory store. */
  readonly idempotency?: IdempotencyStore;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;
const PROFILE = 'profile_alpha_main';

/** The API of `makeApi` over a real socket, on the given stores. */
async function serve(api: ApiHarness, stores: RotationStores) {
  const server = createServer(
    createNodeListener({
      ...api.handlerOptions,
      credentials: stores.credentials,
      ...(stores.idempotency === undefined ? {} : { idempotency: stores.idempotency }),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    payments: `${origin}/v1/profiles/${PROFILE}/payments`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const create = (url: string, token: string, key: string, reference: string): Promise<Answer> =>
  post(url, token, hostedRequest({ reference }), { 'idempotency-key': key });

const expectUnauthorized = (answer: Answer): void => {
  expect(answer.status).toBe(401);
  expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="paystate", error="invalid_token"$/);
  expect(answer.json).toMatchObject({ code: 'unauthorized' });
};

/**
 * A client rolls its API token while it uses the API, over a real socket (decisions.md section 3,
 * `Idempotency-Key`s section 6): `makeStores` builds the credential store (and, optionally, the
 * idempotency store) on the harness's clock.
 */
export function tokenRotationOverHttp(
  name: string,
  makeStores: (config: SandboxConfig, clock: Clock) => Promise<RotationStores>,
): void {
  describe(`Rotating an API token over HTTP: ${name}`, () => {
    it('during the overlap both tokens work and share Idempotency-Keys; after the expiry the old one is 401', async () => {
      const api = makeApi();
      const stores = await makeStores(CONFIG, api.clock);
      const { payments, close } = await serve(api, stores);
      const old = TOKENS.alphaCompliant;
      const next = `tok_rolled_${randomBytes(16).toString('base64url')}`;
      try {
        const before = await create(payments, old, 'key-before', 'before');
        expect(before.status).toBe(201);

        const rolled = await expectOk(
          stores.credentials.rollToken({ old: { token: old }, token: next, overlapMs: HOUR }),
        );
        expect(rolled.retired.expiresAt).toBe(api.clock.now() + HOUR);

        // The overlap: both tokens create payments, as the same client.
        const withOld = await create(payments, old, 'key-old', 'old');
        const withNew = await create(payments, next, 'key-new', 'new');
        expect([withOld.status, withNew.status]).toEqual([201, 201]);
        // A key used with the old token replays with the new one, byte for byte, and the other way round.
        const replayed = await create(payments, next, 'key-before', 'before');
        expect(replayed.status).toBe(201);
        expect(replayed.headers['idempotency-replayed']).toBe('true');
        expect(replayed.text).toBe(before.text);
        const back = await create(payments, old, 'key-new', 'new');
        expect(back.headers['idempotency-replayed']).toBe('true');
        expect(back.json.id).toBe(withNew.json.id);
        // The same key with another body is the same client's key used for something else.
        expect((await create(payments, next, 'key-old', 'something else')).status).toBe(422);
        expect((await get(`${payments}/${withOld.json.id}`, next)).status).toBe(200);
        expect((await get(`${payments}/${withNew.json.id}`, old)).status).toBe(200);
        const listed = await get(payments, next);
        expect(listed.json.items.map((payment: { id: string }) => payment.id).sort()).toEqual(
          [before.json.id, withOld.json.id, withNew.json.id].sort(),
        );

        // One millisecond before the expiry the old token still works; at it, it is 401.
        api.clock.advance(HOUR - 1);
        expect((await get(payments, old)).status).toBe(200);
        api.clock.advance(1);
        expectUnauthorized(await create(payments, old, 'key-late', 'late'));
        expectUnauthorized(await create(payments, old, 'key-before', 'before'));
        expectUnauthorized(await get(`${payments}/${before.json.id}`, old));
        const late = await create(payments, next, 'key-before', 'before');
        expect(late.headers['idempotency-replayed']).toBe('true');
        expect(late.json.id).toBe(before.json.id);
        expect((await create(payments, next, 'key-after', 'after')).status).toBe(201);
        expect(api.unhandled()).toEqual([]);
      } finally {
        await close();
        await stores.close();
      }
    });

    it('a roll with an overlap of 0 shuts the old token out at once, and a revoked token is 401', async () => {
      const api = makeApi();
      const stores = await makeStores(CONFIG, api.clock);
      const { payments, close } = await serve(api, stores);
      const old = TOKENS.alphaHosted;
      const next = `tok_rolled_${randomBytes(16).toString('base64url')}`;
      try {
        expect((await create(payments, old, 'key-1', 'one')).status).toBe(201);
        await expectOk(stores.credentials.rollToken({ old: { token: old }, token: next, overlapMs: 0 }));
        expectUnauthorized(await create(payments, old, 'key-2', 'two'));
        const replayed = await create(payments, next, 'key-1', 'one');
        expect(replayed.headers['idempotency-replayed']).toBe('true');

        expect(await expectOk(stores.credentials.revokeToken({ token: TOKENS.alphaSecondOnly }))).toBe(true);
        expectUnauthorized(await get(`${payments.replace(PROFILE, 'profile_alpha_second')}`, TOKENS.alphaSecondOnly));
        expect(api.unhandled()).toEqual([]);
      } finally {
        await close();
        await stores.close();
      }
    });
  });
}
