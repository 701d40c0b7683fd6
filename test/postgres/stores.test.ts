import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createMemoryCredentialStore, type SandboxConfig } from '../../adapters/memory/index.js';
import { createPostgresCredentialStore, createPostgresIdempotencyStore } from '../../adapters/postgres/index.js';
import type { IdempotencyStore, StoredResponse } from '../../src/ports/idempotency-store.js';
import { idempotencyStoreContract } from '../contracts/idempotency-store.contract.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { createNodeListener } from '../../adapters/http/index.js';
import { makeApi, TOKENS } from '../http/support/api-harness.js';
import { get, post } from '../http/support/client.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { makePostgresEngine } from './support/postgres-engine.js';

const db = useMigratedDatabase();
const T0 = Date.UTC(2026, 0, 15, 12);
const DAY = 24 * 60 * 60 * 1000;

const response: StoredResponse = {
  status: 201,
  headers: { 'content-type': 'application/json', location: '/v1/profiles/p/payments/x' },
  body: '{"id":"payment_1","amount":1999,"description":"crème brûlée ✓"}\n',
};

idempotencyStoreContract('postgres', async () => ({
  store: createPostgresIdempotencyStore({ pool: db.pool }),
  close: async () => undefined,
}));

describe('postgres idempotency store', () => {
  it('answers unavailable and retryable when the server cannot be reached', async () => {
    const store = createPostgresIdempotencyStore({
      connectionString: 'postgres://nobody:secret@127.0.0.1:1/nothing',
      poolOptions: { connectionTimeoutMs: 1_000 },
    });
    const error = await expectErr(
      store.begin({ clientId: 'client_a', key: 'key-1', fingerprint: 'f', now: T0, ttlMs: DAY }),
    );
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(error.message).not.toContain('secret');
    await store.close();
  });

  it('keeps the answer body as text, byte for byte', async () => {
    const store = createPostgresIdempotencyStore({ pool: db.pool });
    const ref = { clientId: 'client_bytes', key: 'k' };
    await expectOk(store.begin({ ...ref, fingerprint: 'f', now: T0, ttlMs: DAY }));
    await expectOk(store.complete({ ...ref, response }));
    const { rows } = await db.pool.query<{ body: string; headers: unknown }>(
      'SELECT response_body AS body, response_headers AS headers FROM paystate_idempotency_keys WHERE client_id = $1',
      [ref.clientId],
    );
    expect(rows[0]).toStrictEqual({ body: response.body, headers: response.headers });
  });
});

describe('postgres idempotency store, expired entries (found by a reviewing helper)', () => {
  it('a request that waited on another taking over an expired entry gets in_progress, not the expired answer', async () => {
    const store = createPostgresIdempotencyStore({ pool: db.pool });
    const ref = { clientId: 'client_expired_race', key: 'k' };
    await expectOk(store.begin({ ...ref, fingerprint: 'f', now: T0, ttlMs: DAY }));
    await expectOk(store.complete({ ...ref, response }));
    const now = T0 + DAY + 60 * 60 * 1000;
    // A third session holds the row a moment, so that A and B both wait on its lock, A first.
    const lock = await db.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM paystate_idempotency_keys WHERE client_id = $1 AND key = $2 FOR UPDATE', [
        ref.clientId,
        ref.key,
      ]);
      const a = store.begin({ ...ref, fingerprint: 'f', now, ttlMs: DAY });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const b = store.begin({ ...ref, fingerprint: 'f', now, ttlMs: DAY });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await lock.query('COMMIT');
      expect(await expectOk(a)).toEqual({ kind: 'started', reservedId: null, takeover: false });
      expect(await expectOk(b)).toEqual({ kind: 'in_progress' });
    } finally {
      lock.release();
    }
  });

  it('a request that waited on another taking over a stale attempt gets in_progress', async () => {
    const store = createPostgresIdempotencyStore({ pool: db.pool });
    const ref = { clientId: 'client_stale_race', key: 'k' };
    const reservedId = `payment_${'c'.repeat(32)}`;
    const begin = (now: number, reserve: string) =>
      store.begin({ ...ref, fingerprint: 'f', now, ttlMs: DAY, reservedId: reserve, staleAfterMs: 5 * 60 * 1000 });
    await expectOk(begin(T0, reservedId));
    const now = T0 + 10 * 60 * 1000;
    const lock = await db.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM paystate_idempotency_keys WHERE client_id = $1 AND key = $2 FOR UPDATE', [
        ref.clientId,
        ref.key,
      ]);
      const a = begin(now, `payment_${'d'.repeat(32)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const b = begin(now, `payment_${'e'.repeat(32)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await lock.query('COMMIT');
      expect(await expectOk(a)).toEqual({ kind: 'started', reservedId, takeover: true });
      expect(await expectOk(b)).toEqual({ kind: 'in_progress' });
    } finally {
      lock.release();
    }
  });
});

const STALE = 5 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `begin` as the statement of the versions before reservations (before migration 8) ran it. */
const BEGIN_BEFORE_RESERVATIONS = `
WITH claimed AS (
  INSERT INTO paystate_idempotency_keys AS k (client_id, key, fingerprint, status, created_at, expires_at)
  VALUES ($1, $2, $3, 'in_progress', $4, $5)
  ON CONFLICT (client_id, key) DO UPDATE
  SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress', response_status = NULL,
      response_headers = NULL, response_body = NULL, created_at = EXCLUDED.created_at,
      expires_at = EXCLUDED.expires_at
  WHERE k.expires_at <= EXCLUDED.created_at
  RETURNING true AS started
)
SELECT true AS started FROM claimed`;

describe('postgres idempotency store, rows of versions before reservations (migration 8)', () => {
  const reservedId = `payment_${'b'.repeat(32)}`;

  it('never takes over an in_progress row that reserved no id: in progress until it expires', async () => {
    const store = createPostgresIdempotencyStore({ pool: db.pool });
    const ref = { clientId: 'client_old_row', key: 'k' };
    await db.pool.query(BEGIN_BEFORE_RESERVATIONS, [ref.clientId, ref.key, 'f', iso(T0), iso(T0 + DAY)]);
    const begin = (now: number) =>
      expectOk(store.begin({ ...ref, fingerprint: 'f', now, ttlMs: DAY, reservedId, staleAfterMs: STALE }));
    expect(await begin(T0 + STALE)).toEqual({ kind: 'in_progress' });
    expect(await begin(T0 + DAY - 1)).toEqual({ kind: 'in_progress' });
    expect(await begin(T0 + DAY)).toEqual({ kind: 'started', reservedId, takeover: false });
  });

  it('never hands over the id of an entry that an older version replaced after it expired', async () => {
    const store = createPostgresIdempotencyStore({ pool: db.pool });
    const ref = { clientId: 'client_old_reclaim', key: 'k' };
    const first = `payment_${'a'.repeat(32)}`;
    await expectOk(
      store.begin({ ...ref, fingerprint: 'f', now: T0, ttlMs: DAY, reservedId: first, staleAfterMs: STALE }),
    );
    // An instance of the older version claims the expired key for another request: its row keeps
    // the reserved id of the entry before, which is no payment of this request.
    const { rows } = await db.pool.query(BEGIN_BEFORE_RESERVATIONS, [
      ref.clientId,
      ref.key,
      'g',
      iso(T0 + DAY),
      iso(T0 + 2 * DAY),
    ]);
    expect(rows).toEqual([{ started: true }]);
    const begin = (now: number) =>
      expectOk(store.begin({ ...ref, fingerprint: 'g', now, ttlMs: DAY, reservedId, staleAfterMs: STALE }));
    expect(await begin(T0 + DAY + STALE)).toEqual({ kind: 'in_progress' });
    expect(await begin(T0 + 2 * DAY - 1)).toEqual({ kind: 'in_progress' });
  });
});

// Over a real socket, every store on Postgres: a request whose process dies after it stored and
// authorized the payment, before it settled its key.
describe('the API on postgres, after a request died before settling its Idempotency-Key', () => {
  it('answers 409 until the request is stale, then the payment it stored, authorized once', async () => {
    await resetTables(db.pool);
    const api = makeApi();
    const payments = makePostgresEngine({ pool: db.pool, seed: 21, clock: api.clock });
    const keys = createPostgresIdempotencyStore({ pool: db.pool });
    let dead = false;
    const unavailable = { code: 'unavailable', message: 'connection lost', retryable: true } as const;
    const idempotency: IdempotencyStore = {
      begin: (request) => keys.begin(request),
      complete: (request) => (dead ? err(unavailable) : keys.complete(request)),
      release: (request) => (dead ? err(unavailable) : keys.release(request)),
      purgeExpired: (now) => keys.purgeExpired(now),
    };
    const server = createServer(createNodeListener({ ...api.handlerOptions, engine: payments.engine, idempotency }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/profiles/profile_alpha_main/payments`;
    const send = (key: string) =>
      post(url, TOKENS.alphaCompliant, directRequest('4242424242424242'), { 'idempotency-key': key });
    try {
      dead = true;
      const lost = await send('charged-then-died');
      expect(lost.status).toBe(201);
      dead = false;

      api.clock.advance(STALE - 1);
      expect((await send('charged-then-died')).status).toBe(409);
      api.clock.advance(1);
      const retried = await send('charged-then-died');
      expect(retried.status).toBe(201);
      expect(retried.json.id).toBe(lost.json.id);
      expect(retried.text).toBe(lost.text);
      expect(payments.sandboxAcquirer.authorizations()).toHaveLength(1);
      expect(payments.repository.writes.inserts).toBe(1);
      const replayed = await send('charged-then-died');
      expect(replayed.headers['idempotency-replayed']).toBe('true');
      expect(replayed.text).toBe(retried.text);
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM paystate_payments');
      expect(rows[0]).toEqual({ n: 1 });
      expect(api.unhandled()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await keys.close();
    }
  });
});

describe('the API on postgres with Idempotency-Key limits too large for a date (found by a reviewer)', () => {
  it.each([
    // The TTL must be longer than the stale limit: both huge, the TTL the larger.
    [
      'idempotencyStaleAfterMs 9e15',
      { idempotencyStaleAfterMs: 9_000_000_000_000_000, idempotencyTtlMs: Number.MAX_SAFE_INTEGER },
    ],
    [
      'idempotencyStaleAfterMs MAX_SAFE_INTEGER - 1',
      { idempotencyStaleAfterMs: Number.MAX_SAFE_INTEGER - 1, idempotencyTtlMs: Number.MAX_SAFE_INTEGER },
    ],
    ['idempotencyTtlMs MAX_SAFE_INTEGER', { idempotencyTtlMs: Number.MAX_SAFE_INTEGER }],
  ])('%s: a keyed create answers 201 and its replay, never 500', async (_name, limits) => {
    await resetTables(db.pool);
    const api = makeApi();
    const payments = makePostgresEngine({ pool: db.pool, seed: 22, clock: api.clock });
    const idempotency = createPostgresIdempotencyStore({ pool: db.pool });
    const server = createServer(
      createNodeListener({ ...api.handlerOptions, ...limits, engine: payments.engine, idempotency }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/profiles/profile_alpha_main/payments`;
    const send = () => post(url, TOKENS.alphaCompliant, hostedRequest(), { 'idempotency-key': 'huge-limit' });
    try {
      const created = await send();
      expect(created.status).toBe(201);
      const replayed = await send();
      expect(replayed.headers['idempotency-replayed']).toBe('true');
      expect(replayed.text).toBe(created.text);
      expect(api.unhandled()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await idempotency.close();
    }
  });
});

const config: SandboxConfig = {
  partners: [
    {
      id: 'partner_a',
      profiles: [
        { id: 'profile_a1', name: 'Shop A1' },
        { id: 'profile_a2', name: 'Shop A2' },
      ],
    },
    { id: 'partner_b', profiles: [{ id: 'profile_b1', name: 'Shop B1' }] },
  ],
  clients: [
    {
      token: 'token-of-a-0123456789-AbCd',
      partner_id: 'partner_a',
      profile_ids: ['profile_a1', 'profile_a2'],
      pci_dss_compliant: true,
    },
    {
      token: 'token-of-b-0123456789-EfGh',
      partner_id: 'partner_b',
      profile_ids: ['profile_b1'],
      pci_dss_compliant: false,
    },
  ],
};

describe('postgres credential store', () => {
  const fresh = async () => {
    await resetTables(db.pool);
    const store = createPostgresCredentialStore({ pool: db.pool });
    expect(await expectOk(store.importConfig(config))).toEqual({ profiles: 3, clients: 2 });
    return store;
  };

  it('authenticates like the in-memory store, with the same client ids', async () => {
    const store = await fresh();
    const memory = createMemoryCredentialStore(config);
    for (const token of ['token-of-a-0123456789-AbCd', 'token-of-b-0123456789-EfGh']) {
      const { tokenId: postgresTokenId, ...fromPostgres } = (await expectOk(store.authenticate(token)))!;
      const { tokenId: memoryTokenId, ...fromMemory } = (await expectOk(memory.authenticate(token)))!;
      expect(fromPostgres).toStrictEqual(fromMemory);
      // Each store gives a token an id of its own, at random.
      expect(postgresTokenId).toMatch(/^[0-9a-f]{16}$/);
      expect(memoryTokenId).toMatch(/^[0-9a-f]{16}$/);
      expect(postgresTokenId).not.toBe(memoryTokenId);
    }
    expect(await expectOk(store.authenticate('token-of-a-0123456789-AbC'))).toBeNull();
    expect(await expectOk(store.authenticate(''))).toBeNull();
    expect(await expectOk(store.findProfile('profile_a2'))).toEqual({
      id: 'profile_a2',
      partnerId: 'partner_a',
      name: 'Shop A2',
    });
    expect(await expectOk(store.findProfile('profile_zz'))).toBeNull();
  });

  it('keeps only SHA-256 digests of tokens at rest', async () => {
    await fresh();
    const { rows } = await db.pool.query(
      `SELECT row_to_json(c)::text || row_to_json(t)::text AS client, encode(t.token_sha256, 'hex') AS digest
       FROM paystate_clients c JOIN paystate_client_tokens t ON t.client_id = c.id ORDER BY c.id`,
    );
    const digests = config.clients.map((client) => createHash('sha256').update(client.token).digest('hex'));
    for (const row of rows as { client: string; digest: string }[]) {
      expect(digests).toContain(row.digest);
      for (const client of config.clients) expect(row.client).not.toContain(client.token);
    }
  });

  it('re-imports idempotently and updates a client with the same token', async () => {
    const store = await fresh();
    expect(await expectOk(store.importConfig(config))).toEqual({ profiles: 3, clients: 2 });
    const changed: SandboxConfig = {
      ...config,
      clients: [
        { ...config.clients[0]!, profile_ids: ['profile_a1'] },
        { ...config.clients[1]!, pci_dss_compliant: true },
      ],
    };
    await expectOk(store.importConfig(changed));
    expect(await expectOk(store.authenticate('token-of-a-0123456789-AbCd'))).toMatchObject({
      profileIds: ['profile_a1'],
    });
    expect(await expectOk(store.authenticate('token-of-b-0123456789-EfGh'))).toMatchObject({ pciDssCompliant: true });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM paystate_clients');
    expect(rows[0]).toEqual({ n: 2 });
  });

  // Found by a reviewing helper: a re-import only added and updated, so a token taken out of
  // the config kept working, and so did a profile taken out of it.
  it('a re-import makes the stored clients and profiles exactly the config: left-out tokens stop working', async () => {
    const store = await fresh();
    const smaller: SandboxConfig = {
      partners: [{ id: 'partner_a', profiles: [{ id: 'profile_a1', name: 'Shop A1' }] }],
      clients: [{ ...config.clients[0]!, profile_ids: ['profile_a1'] }],
    };
    expect(await expectOk(store.importConfig(smaller))).toEqual({ profiles: 1, clients: 1 });
    expect(await expectOk(store.authenticate('token-of-b-0123456789-EfGh'))).toBeNull();
    expect(await expectOk(store.findProfile('profile_a2'))).toBeNull();
    expect(await expectOk(store.findProfile('profile_b1'))).toBeNull();
    expect(await expectOk(store.authenticate('token-of-a-0123456789-AbCd'))).toMatchObject({
      profileIds: ['profile_a1'],
    });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM paystate_clients');
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('removeClient revokes a token at once', async () => {
    const store = await fresh();
    expect(await expectOk(store.removeClient('token-of-b-0123456789-EfGh'))).toBe(true);
    expect(await expectOk(store.authenticate('token-of-b-0123456789-EfGh'))).toBeNull();
    expect(await expectOk(store.removeClient('token-of-b-0123456789-EfGh'))).toBe(false);
    expect(await expectOk(store.authenticate('token-of-a-0123456789-AbCd'))).not.toBeNull();
  });

  it('refuses clients and profiles it could not serve, without repeating the token', async () => {
    const store = await fresh();
    const base = {
      token: 'token-new-0123-Gh3Jk5Lm7N',
      partnerId: 'partner_a',
      profileIds: ['profile_a1'],
      pciDssCompliant: false,
    };
    for (const bad of [
      { ...base, profileIds: ['profile_b1'] }, // another partner's profile
      { ...base, profileIds: ['profile_zz'] }, // unknown
      { ...base, token: 'with space 0123' },
      { ...base, token: 'a'.repeat(4097) },
      { ...base, partnerId: 'partner/a' },
      { ...base, id: 'client é' },
    ]) {
      const error = await expectErr(store.putClient(bad));
      expect(error).toMatchObject({ code: 'invalid_client', retryable: false });
      expect(error.message).not.toContain(bad.token.slice(0, 12));
      expect(await expectOk(store.authenticate(bad.token))).toBeNull();
    }
    for (const id of ['shop/eu', 'café', '..', '']) {
      expect(await expectErr(store.putProfile({ id, partnerId: 'partner_a', name: 'Shop' }))).toMatchObject({
        code: 'invalid_profile',
      });
      if (id !== '') expect(await expectOk(store.findProfile(id))).toBeNull();
    }
  });

  // Found by a reviewer: putProfile took any ids, and GET profile then answered ids that break the
  // OpenAPI document (`^profile_`, `^partner_`; payments-api.md, "Identifier prefixes").
  it('refuses partner and profile ids without their prefixes, naming which', async () => {
    const store = await fresh();
    for (const [profile, message] of [
      [{ id: 'shop', partnerId: 'partner_a', name: 'Shop' }, /^The profile id must be profile_ followed by/],
      [{ id: 'profile_', partnerId: 'partner_a', name: 'Shop' }, /^The profile id must be profile_ followed by/],
      [{ id: 'profile_new', partnerId: 'acme', name: 'Shop' }, /^The partner id must be partner_ followed by/],
      [{ id: 'profile_new', partnerId: 'profile_a1', name: 'Shop' }, /^The partner id must be partner_ followed by/],
    ] as const) {
      expect(await expectErr(store.putProfile(profile))).toMatchObject({
        code: 'invalid_profile',
        message: expect.stringMatching(message),
      });
      expect(await expectOk(store.findProfile(profile.id))).toBeNull();
    }
    const base = {
      token: 'token-new-0123-Gh3Jk5Lm7N',
      partnerId: 'partner_a',
      profileIds: ['profile_a1'],
      pciDssCompliant: false,
    };
    expect(await expectErr(store.putClient({ ...base, partnerId: 'acme' }))).toMatchObject({
      code: 'invalid_client',
      message: expect.stringMatching(/^The partner id must be partner_ followed by/),
    });
    expect(await expectErr(store.putClient({ ...base, profileIds: ['shop'] }))).toMatchObject({
      code: 'invalid_client',
      message: expect.stringMatching(/^Every profile id must be profile_ followed by/),
    });
    const unprefixed = { partners: [{ id: 'acme', profiles: [] }], clients: [] };
    expect(await expectErr(store.importConfig(unprefixed))).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('partners[0].id: must be partner_ followed by'),
    });
    // Nothing was replaced.
    expect(await expectOk(store.findProfile('profile_a1'))).not.toBeNull();
  });

  // Found by a reviewing helper: a profile given to another partner stayed in the old partner's
  // clients, which could then list, read and create payments in it.
  it('a profile given to another partner leaves the clients of the partner it left', async () => {
    const store = await fresh();
    await expectOk(store.putProfile({ id: 'profile_a2', partnerId: 'partner_b', name: 'Now B' }));
    expect(await expectOk(store.authenticate('token-of-a-0123456789-AbCd'))).toMatchObject({
      profileIds: ['profile_a1'],
    });
    const b = await expectOk(
      store.putClient({
        token: 'token-of-b-0123456789-EfGh',
        partnerId: 'partner_b',
        profileIds: ['profile_b1', 'profile_a2'],
        pciDssCompliant: false,
      }),
    );
    expect(b.profileIds).toEqual(['profile_b1', 'profile_a2']);
    expect(await expectOk(store.authenticate('token-of-b-0123456789-EfGh'))).toStrictEqual({
      ...b,
      tokenId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  it('refuses an invalid config without naming its tokens, and stores nothing of it', async () => {
    const store = await fresh();
    const invalid = {
      partners: config.partners,
      clients: [{ ...config.clients[0]!, token: 'secret-token-xyz', partner_id: 'partner_unknown' }],
    } as SandboxConfig;
    const error = await expectErr(store.importConfig(invalid));
    expect(error.code).toBe('invalid_config');
    expect(error.message).not.toContain('secret-token-xyz');
    expect(await expectOk(store.authenticate('secret-token-xyz'))).toBeNull();
  });

  it('registers clients and profiles one by one', async () => {
    const store = await fresh();
    await expectOk(store.putProfile({ id: 'profile_c1', partnerId: 'partner_c', name: 'Shop C1' }));
    const client = await expectOk(
      store.putClient({
        token: 'token-c-0123456789-Gh3Jk',
        partnerId: 'partner_c',
        profileIds: ['profile_c1'],
        pciDssCompliant: true,
      }),
    );
    expect(client.id).toMatch(/^client_[0-9a-f]{16}$/);
    expect(await expectOk(store.authenticate('token-c-0123456789-Gh3Jk'))).toStrictEqual({
      ...client,
      tokenId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(await expectOk(store.findProfile('profile_c1'))).toMatchObject({ name: 'Shop C1' });
  });
});

// Found by a reviewing helper, over a real socket: after a profile changed partners, the old
// partner's token could list, read and create payments in it, and the new partner's clients saw
// the payments filed under the old one.
describe('the API on the postgres credential store, after a profile changes partners', () => {
  it('the old partner loses the profile, and neither partner reads the other one’s payments', async () => {
    await resetTables(db.pool);
    const store = createPostgresCredentialStore({ pool: db.pool });
    await expectOk(store.importConfig(config));
    const api = makeApi();
    const server = createServer(createNodeListener({ ...api.handlerOptions, credentials: store }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [tokenA, tokenB] = ['token-of-a-0123456789-AbCd', 'token-of-b-0123456789-EfGh'];
    try {
      const created = await post(`${origin}/v1/profiles/profile_a2/payments`, tokenA, hostedRequest());
      expect(created.status).toBe(201);
      const id = created.json.id as string;

      await expectOk(store.putProfile({ id: 'profile_a2', partnerId: 'partner_b', name: 'Now B' }));
      await expectOk(
        store.putClient({
          token: tokenB,
          partnerId: 'partner_b',
          profileIds: ['profile_b1', 'profile_a2'],
          pciDssCompliant: false,
        }),
      );

      expect((await get(`${origin}/v1/profiles/profile_a2/payments`, tokenA)).status).toBe(403);
      expect((await get(`${origin}/v1/profiles/profile_a2/payments/${id}`, tokenA)).status).toBe(403);
      expect((await post(`${origin}/v1/profiles/profile_a2/payments`, tokenA, hostedRequest())).status).toBe(403);

      const listed = await get(`${origin}/v1/profiles/profile_a2/payments`, tokenB);
      expect(listed.status).toBe(200);
      expect(listed.json.items).toEqual([]);
      expect((await get(`${origin}/v1/profiles/profile_a2/payments/${id}`, tokenB)).status).toBe(404);
      expect((await get(`${origin}/v1/partners/partner_b/profiles/profile_a2/payments/${id}`, tokenB)).status).toBe(
        404,
      );
      const own = await post(`${origin}/v1/profiles/profile_a2/payments`, tokenB, hostedRequest());
      expect(own.status).toBe(201);
      expect(
        (await get(`${origin}/v1/profiles/profile_a2/payments`, tokenB)).json.items.map((p: { id: string }) => p.id),
      ).toEqual([own.json.id]);
      expect(api.unhandled()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
