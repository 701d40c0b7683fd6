import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryEventSink,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
  DEFAULT_TEST_CLOCK_START,
  parseSandboxConfig,
  sandboxConfigSchema,
  type SandboxConfig,
} from '../../adapters/memory/index.js';
import { BUNDLED_SANDBOX_CONFIG } from '../../adapters/sandbox-server/index.js';
import { compareKeys, createSortedIndex, type IndexKey } from '../../adapters/memory/sorted-index.js';
import type { CardData } from '../../src/domain/card.js';
import { deepFreeze } from '../../src/domain/immutable.js';
import { INTERNAL_STATES } from '../../src/domain/payment-state.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { RepositoryError } from '../../src/ports/payment-repository.js';
import { expectErr, expectOk, paymentRepositoryContract } from '../contracts/payment-repository.contract.js';
import { makeEvent, makeRecord, MINUTE, nextVersion, T0 } from '../contracts/fixtures.js';

paymentRepositoryContract('memory', async () => ({
  repository: createMemoryPaymentRepository(),
  close: async () => undefined,
}));

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('createMemoryPaymentRepository', () => {
  it('stores deep-frozen copies of records and events', async () => {
    const repository = createMemoryPaymentRepository();
    const record = makeRecord();
    await expectOk(repository.insert(record, [makeEvent(record)]));
    const loaded = await expectOk(repository.load(record.id));
    expect(loaded).not.toBe(record);
    expect(isDeepFrozen(loaded)).toBe(true);
    expect(Object.isFrozen(record)).toBe(false);
    const [entry] = await expectOk(repository.readOutbox({ now: T0, limit: 10 }));
    expect(isDeepFrozen(entry)).toBe(true);
  });

  it('keeps frozen writes as they are, and copies an event that shares frozen contacts but holds a mutable part', async () => {
    const repository = createMemoryPaymentRepository();
    const record = deepFreeze(makeRecord());
    const kept = deepFreeze(makeEvent(record));
    // The record's own (frozen) contacts, as the engine's events carry them, and one mutable object.
    const links = {
      self: { href: '/v1/somewhere', type: 'application/json' as const },
      profile: kept.payment._links.profile,
    };
    const mixed = Object.freeze({
      ...makeEvent(record, 'payment.succeeded'),
      payment: Object.freeze({ ...kept.payment, billing: record.billing, _links: links }),
    });
    await expectOk(repository.insert(record, [kept, mixed]));
    expect(await expectOk(repository.load(record.id))).toBe(record);
    const [first, second] = await expectOk(repository.readOutbox({ now: T0, limit: 10 }));
    expect(first?.event).toBe(kept);
    expect(second?.event).not.toBe(mixed);
    expect(isDeepFrozen(second)).toBe(true);
    links.self.href = '/v1/elsewhere';
    expect(second?.event.payment._links.self.href).toBe('/v1/somewhere');
  });

  it('exposes size() and snapshot() in insertion order', async () => {
    const repository = createMemoryPaymentRepository();
    expect(repository.size()).toBe(0);
    const first = makeRecord({ createdAt: T0 + 5 });
    const second = makeRecord({ createdAt: T0 });
    await expectOk(repository.insert(first, []));
    await expectOk(repository.insert(second, []));
    const updated = nextVersion(first, { description: 'updated' });
    await expectOk(repository.update(updated, []));
    expect(repository.size()).toBe(2);
    expect(repository.snapshot()).toStrictEqual([updated, second]);
  });

  it('fails injected calls with unavailable, writes nothing, then recovers', async () => {
    const repository = createMemoryPaymentRepository();
    const record = makeRecord();
    repository.injectFailure('insert');
    const error = await expectErr(repository.insert(record, [makeEvent(record)]));
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(repository.size()).toBe(0);
    expect(await expectOk(repository.readOutbox({ now: T0, limit: 10 }))).toEqual([]);

    await expectOk(repository.insert(record, []));
    const custom: RepositoryError = { code: 'unavailable', message: 'serialization failure', retryable: true };
    repository.injectFailure('update', custom);
    repository.injectFailure('update');
    const v2 = nextVersion(record);
    expect(await expectErr(repository.update(v2, []))).toBe(custom);
    expect((await expectErr(repository.update(v2, []))).code).toBe('unavailable');
    await expectOk(repository.update(v2, []));
    expect(await expectOk(repository.load(record.id))).toStrictEqual(v2);
  });

  it('asks failOn before every call', async () => {
    const broken = makeRecord();
    const repository = createMemoryPaymentRepository({
      failOn: (method, args) =>
        method === 'load' && args[0] === broken.id ? { code: 'unavailable', message: 'down', retryable: true } : null,
    });
    await expectOk(repository.insert(broken, []));
    expect((await expectErr(repository.load(broken.id))).message).toBe('down');
    expect(await expectOk(repository.load('payment_other'))).toBeNull();
  });

  it('answers conflicts as not retryable as they stand', async () => {
    const repository = createMemoryPaymentRepository();
    const record = makeRecord();
    await expectOk(repository.insert(record, []));
    expect(await expectErr(repository.insert(record, []))).toMatchObject({ code: 'conflict', retryable: false });
  });

  it('agrees with a naive model for list and findDue under random inserts and updates', async () => {
    const profiles = ['profile_a', 'profile_b'] as const;
    const time = fc.integer({ min: 0, max: 6 }).map((minutes) => T0 + minutes * MINUTE);
    const operation = fc.record({
      target: fc.nat({ max: 20 }),
      profile: fc.constantFrom(...profiles),
      state: fc.constantFrom(...INTERNAL_STATES),
      createdAt: time,
      expiresAt: fc.option(time),
      nextInquiryAt: fc.option(time),
    });
    const query = fc.record({
      now: time,
      limit: fc.integer({ min: 1, max: 8 }),
      pageSize: fc.integer({ min: 1, max: 5 }),
    });

    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 40 }), query, async (operations, { now, limit, pageSize }) => {
        const repository = createMemoryPaymentRepository();
        const model = new Map<string, PaymentRecord>();
        for (const op of operations) {
          const id = `payment_${op.target.toString(16).padStart(32, '0')}`;
          const current = model.get(id);
          const changes = { state: op.state, expiresAt: op.expiresAt, nextInquiryAt: op.nextInquiryAt };
          const next = current
            ? nextVersion(current, changes)
            : makeRecord({ id, profileId: op.profile, createdAt: op.createdAt, ...changes });
          await expectOk(current ? repository.update(next, []) : repository.insert(next, []));
          model.set(id, next);
        }

        const byKey =
          (time: (record: PaymentRecord) => number, direction: 1 | -1) => (a: PaymentRecord, b: PaymentRecord) =>
            direction * (time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        for (const profileId of profiles) {
          const expected = [...model.values()]
            .filter((record) => record.profileId === profileId)
            .sort(byKey((record) => record.createdAt, -1));
          const seen: PaymentRecord[] = [];
          let after: string | undefined;
          do {
            const page = await expectOk(repository.list({ profileId, limit: pageSize, ...(after ? { after } : {}) }));
            seen.push(...page.items);
            after = page.nextCursor ?? undefined;
          } while (after !== undefined);
          expect(seen).toStrictEqual(expected);
        }

        const records = [...model.values()];
        const expiries = records
          .filter(
            (r) =>
              (r.state === 'awaiting_card_data' || r.state === 'awaiting_challenge') &&
              r.expiresAt !== null &&
              r.expiresAt <= now,
          )
          .sort(byKey((r) => r.expiresAt ?? 0, 1))
          .slice(0, limit);
        const inquiries = records
          .filter((r) => r.state === 'authorizing' && r.nextInquiryAt !== null && r.nextInquiryAt <= now)
          .sort(byKey((r) => r.nextInquiryAt ?? 0, 1))
          .slice(0, limit);
        expect(await expectOk(repository.findDue({ now, limit }))).toStrictEqual({
          expiries,
          inquiries,
          authorizationExpiries: [],
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('createSortedIndex', () => {
  it('agrees with a sorted, duplicate-free model under random adds and removes', () => {
    const key = fc.record({ time: fc.integer({ min: 0, max: 6 }), id: fc.constantFrom('a', 'b', 'c', 'd') });
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), key }),
      fc.record({ kind: fc.constant('remove' as const), key }),
      // Ascending runs, the common case: each new payment is the latest.
      fc.record({ kind: fc.constant('append' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const index = createSortedIndex();
        let model: IndexKey[] = [];
        let latest = 0;
        for (const { kind, key: drawn } of operations) {
          const key = kind === 'append' ? { time: (latest += drawn.time), id: drawn.id } : drawn;
          const present = model.some((other) => compareKeys(other, key) === 0);
          if (kind === 'remove') {
            index.remove(key);
            model = model.filter((other) => compareKeys(other, key) !== 0);
          } else {
            index.add(key);
            if (!present) model = [...model, key].sort(compareKeys);
          }
          expect([...index.ascending()]).toEqual(model);
        }
        expect(index.size).toBe(model.length);
        expect([...index.descending()]).toEqual([...model].reverse());
      }),
      { numRuns: 1000 },
    );
  });
});

describe('createMemoryCardVault', () => {
  const card: CardData = {
    number: '4242424242424242',
    cvc: '123',
    expiration: '2030-12-01T00:00:00.000Z',
    holderName: 'A. Lovelace',
    scheme: 'visa',
  };

  it('returns a card once: take removes it', async () => {
    const vault = createMemoryCardVault(createTestClock());
    await expectOk(vault.put('payment_1', card, DEFAULT_TEST_CLOCK_START + 10 * MINUTE));
    expect(await expectOk(vault.take('payment_1'))).toStrictEqual(card);
    expect(await expectOk(vault.take('payment_1'))).toBeNull();
    expect(await expectOk(vault.take('payment_unknown'))).toBeNull();
    expect(vault.size()).toBe(0);
  });

  it('keeps a copy: changing the caller’s object changes nothing', async () => {
    const vault = createMemoryCardVault(createTestClock());
    const mine = { ...card };
    await expectOk(vault.put('payment_1', mine, DEFAULT_TEST_CLOCK_START + MINUTE));
    (mine as { cvc: string }).cvc = '999';
    expect((await expectOk(vault.take('payment_1')))?.cvc).toBe('123');
  });

  it('drops an entry once now >= expiresAt', async () => {
    const clock = createTestClock();
    const vault = createMemoryCardVault(clock);
    const expiresAt = clock.now() + 10 * MINUTE;
    await expectOk(vault.put('payment_early', card, expiresAt));
    await expectOk(vault.put('payment_late', card, expiresAt));
    clock.advance(10 * MINUTE - 1);
    expect(await expectOk(vault.take('payment_early'))).toStrictEqual(card);
    clock.advance(1);
    expect(await expectOk(vault.take('payment_late'))).toBeNull();
    expect(vault.size()).toBe(0);
  });

  it('purgeExpired removes expired entries only', async () => {
    const clock = createTestClock();
    const vault = createMemoryCardVault(clock);
    await expectOk(vault.put('payment_1', card, clock.now() + MINUTE));
    await expectOk(vault.put('payment_2', card, clock.now() + 2 * MINUTE));
    clock.advance(MINUTE);
    expect(vault.purgeExpired()._unsafeUnwrap()).toBe(1);
    expect(vault.size()).toBe(1);
    expect(await expectOk(vault.take('payment_2'))).toStrictEqual(card);
  });

  it('purges expired entries as it grows', async () => {
    const clock = createTestClock();
    const vault = createMemoryCardVault(clock);
    for (let index = 0; index < 100; index++) await expectOk(vault.put(`payment_${index}`, card, clock.now() + 1));
    clock.advance(1);
    for (let index = 0; index < 100; index++) await expectOk(vault.put(`payment_new_${index}`, card, clock.now() + 1));
    expect(vault.size()).toBeLessThan(200);
  });
});

describe('createMemoryCredentialStore', () => {
  const tokens = { shop: 'sk_test_Shop_0123456789abcdefABCDEF', hosted: 'sk_test_hosted_only_9876543210' };
  const config: SandboxConfig = {
    partners: [
      {
        id: 'partner_1',
        profiles: [
          { id: 'profile_1', name: 'Shop' },
          { id: 'profile_2', name: 'Outlet' },
        ],
      },
      { id: 'partner_2', profiles: [{ id: 'profile_3', name: 'Other' }] },
    ],
    clients: [
      { token: tokens.shop, partner_id: 'partner_1', profile_ids: ['profile_1', 'profile_2'], pci_dss_compliant: true },
      { token: tokens.hosted, partner_id: 'partner_2', profile_ids: ['profile_3'], pci_dss_compliant: false },
    ],
  };

  it('authenticates a known token', async () => {
    const store = createMemoryCredentialStore(config);
    const client = await expectOk(store.authenticate(tokens.shop));
    expect(client).toEqual({
      id: expect.stringMatching(/^client_[0-9a-f]{16}$/),
      partnerId: 'partner_1',
      profileIds: ['profile_1', 'profile_2'],
      pciDssCompliant: true,
      tokenId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const other = await expectOk(store.authenticate(tokens.hosted));
    expect(other).toMatchObject({ partnerId: 'partner_2', pciDssCompliant: false });
    expect(other?.id).not.toBe(client?.id);
  });

  it('derives stable client ids', async () => {
    const first = await expectOk(createMemoryCredentialStore(config).authenticate(tokens.shop));
    const second = await expectOk(createMemoryCredentialStore(config).authenticate(tokens.shop));
    expect(first?.id).toBe(second?.id);
  });

  it('rejects unknown tokens, tokens in another case and near misses', async () => {
    const store = createMemoryCredentialStore(config);
    for (const token of [
      '',
      'unknown',
      tokens.shop.toUpperCase(),
      tokens.shop.toLowerCase(),
      `${tokens.shop} `,
      tokens.shop.slice(0, -1),
    ]) {
      expect(await expectOk(store.authenticate(token))).toBeNull();
    }
  });

  it('keeps only hashes of tokens', () => {
    const store = createMemoryCredentialStore(config);
    const dump = JSON.stringify(store.dumpState());
    expect(dump).not.toContain(tokens.shop);
    expect(dump).not.toContain(tokens.hosted);
    expect(store.dumpState().clients.map((entry) => entry.tokenSha256)).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
  });

  it('finds profiles with their partner', async () => {
    const store = createMemoryCredentialStore(config);
    expect(await expectOk(store.findProfile('profile_3'))).toEqual({
      id: 'profile_3',
      partnerId: 'partner_2',
      name: 'Other',
    });
    expect(await expectOk(store.findProfile('profile_9'))).toBeNull();
  });

  it('refuses an invalid config', () => {
    const broken = { ...config, clients: [{ ...config.clients[0], partner_id: 'partner_9' }] } as SandboxConfig;
    expect(() => createMemoryCredentialStore(broken)).toThrow(/clients\[0\]\.partner_id: unknown partner partner_9/);
  });

  describe('parseSandboxConfig', () => {
    it('accepts a valid config', () => {
      expect(parseSandboxConfig(config)._unsafeUnwrap()).toEqual(config);
      expect(sandboxConfigSchema.safeParse(config).success).toBe(true);
    });

    it('names every problem with its path and never repeats a token', () => {
      const result = parseSandboxConfig({
        partners: [
          { id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Shop' }] },
          { id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Copy' }] },
          { id: 'partner_2', profiles: [{ id: 'profile_2', name: 'Other' }] },
        ],
        clients: [
          {
            token: tokens.shop,
            partner_id: 'partner_1',
            profile_ids: ['profile_2', 'profile_7'],
            pci_dss_compliant: true,
          },
          { token: tokens.shop, partner_id: 'partner_1', profile_ids: [], pci_dss_compliant: 'yes' },
          { token: 'x', partner_id: 'partner_2', profile_ids: [], pci_dss_compliant: false, secret: 1 },
        ],
      });
      const error = result._unsafeUnwrapErr();
      expect(error.code).toBe('invalid_config');
      const paths = error.issues.map((issue) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(['clients[1].pci_dss_compliant', 'clients[2]']));
      expect(error.message).not.toContain(tokens.shop);
    });

    it('checks references once the shape is right', () => {
      const error = parseSandboxConfig({
        partners: [
          { id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Shop' }] },
          { id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Copy' }] },
          { id: 'partner_2', profiles: [{ id: 'profile_2', name: 'Other' }] },
        ],
        clients: [
          {
            token: tokens.shop,
            partner_id: 'partner_1',
            profile_ids: ['profile_2', 'profile_7'],
            pci_dss_compliant: true,
          },
          { token: tokens.shop, partner_id: 'partner_3', profile_ids: [], pci_dss_compliant: false },
        ],
      })._unsafeUnwrapErr();
      expect(error.issues).toEqual([
        { path: 'partners[1].id', message: 'duplicate partner id partner_1' },
        { path: 'partners[1].profiles[0].id', message: 'duplicate profile id profile_1' },
        { path: 'clients[0].profile_ids[0]', message: 'profile profile_2 belongs to partner partner_2, not partner_1' },
        { path: 'clients[0].profile_ids[1]', message: 'unknown profile profile_7' },
        { path: 'clients[1].token', message: 'same token as clients[0]' },
        { path: 'clients[1].partner_id', message: 'unknown partner partner_3' },
      ]);
      expect(error.message).not.toContain(tokens.shop);
    });

    // Found by a reviewing helper: ids became raw path segments of links (a `Location` Node
    // refused to write, a 500 after the payment was stored), and tokens that no `Authorization:
    // Bearer` header can carry were accepted, then never authenticated.
    // Found by a reviewer: the OpenAPI document says a profile's id starts with profile_ and its
    // partner_id with partner_ (payments-api.md, "Identifier prefixes"), but any ids were
    // accepted, and GET profile then answered ids that break the document.
    it('refuses partner and profile ids without their prefixes, naming each field', () => {
      const error = parseSandboxConfig({
        partners: [{ id: 'acme', profiles: [{ id: 'shop', name: 'Shop' }] }],
        clients: [{ token: tokens.shop, partner_id: 'acme', profile_ids: ['shop'], pci_dss_compliant: false }],
      })._unsafeUnwrapErr();
      expect(error.issues).toEqual([
        { path: 'partners[0].id', message: expect.stringMatching(/^must be partner_ followed by/) },
        { path: 'partners[0].profiles[0].id', message: expect.stringMatching(/^must be profile_ followed by/) },
        { path: 'clients[0].partner_id', message: expect.stringMatching(/^must be partner_ followed by/) },
        { path: 'clients[0].profile_ids[0]', message: expect.stringMatching(/^must be profile_ followed by/) },
      ]);
      expect(error.message).toContain('partners[0].profiles[0].id: must be profile_ followed by');
      // The other prefix, a bare prefix and another case are refused too.
      for (const [partner, profile] of [
        ['profile_1', 'partner_1'],
        ['partner_', 'profile_'],
        ['Partner_1', 'PROFILE_1'],
      ] as const) {
        const issues = parseSandboxConfig({
          partners: [{ id: partner, profiles: [{ id: profile, name: 'Shop' }] }],
          clients: [],
        })._unsafeUnwrapErr().issues;
        expect(issues.map((issue) => issue.path)).toEqual(['partners[0].id', 'partners[0].profiles[0].id']);
      }
      expect(() => createMemoryCredentialStore({ partners: [{ id: 'acme', profiles: [] }], clients: [] })).toThrow(
        /partners\[0\]\.id: must be partner_ followed by/,
      );
      expect(parseSandboxConfig(BUNDLED_SANDBOX_CONFIG).isOk()).toBe(true);
    });

    it('refuses ids that are not URL-safe and tokens that cannot be sent as bearer tokens', () => {
      const badSuffixes = ['shop/eu', 'shop?x', 'café', 'shop€', 'a b', '', 'x'.repeat(256 - 'partner_'.length)];
      for (const suffix of badSuffixes) {
        const partnerIssue = parseSandboxConfig({
          partners: [{ id: `partner_${suffix}`, profiles: [] }],
          clients: [],
        })._unsafeUnwrapErr();
        expect(partnerIssue.issues).toEqual([
          { path: 'partners[0].id', message: expect.stringMatching(/^must be partner_ followed by/) },
        ]);
        const profileIssue = parseSandboxConfig({
          partners: [{ id: 'partner_1', profiles: [{ id: `profile_${suffix}`, name: 'Shop' }] }],
          clients: [],
        })._unsafeUnwrapErr();
        expect(profileIssue.issues.map((issue) => issue.path)).toEqual(['partners[0].profiles[0].id']);
      }
      const goodSuffixes = ['1', 'Shop-2.eu~x', '_', '.', 'x'.repeat(255 - 'partner_'.length)];
      for (const suffix of goodSuffixes) {
        expect(
          parseSandboxConfig({
            partners: [{ id: `partner_${suffix}`, profiles: [{ id: `profile_${suffix}`, name: 'S' }] }],
            clients: [],
          }).isOk(),
        ).toBe(true);
      }

      const badTokens = [
        'with space',
        'bang!',
        'per%cent',
        'quote"',
        'accént',
        ' lead',
        'trail ',
        '=start',
        '',
        'a'.repeat(4097),
      ];
      for (const token of badTokens) {
        const error = parseSandboxConfig({
          partners: [{ id: 'partner_1', profiles: [] }],
          clients: [{ token, partner_id: 'partner_1', profile_ids: [], pci_dss_compliant: false }],
        })._unsafeUnwrapErr();
        expect(error.issues).toEqual([
          { path: 'clients[0].token', message: expect.stringMatching(/^must be 1 to 4096/) },
        ]);
        if (token.length > 3) expect(error.message).not.toContain(token);
      }
      // Bearer tokens, strong enough (`API_TOKEN_STRENGTH_RULE`; sandbox-config-token-strength.test.ts).
      const goodTokens = [
        'sandbox_pci_compliant_token',
        'a-b.c~d+e/f_Gh3Jk5Lm7Np9Qr==',
        randomBytes(3072).toString('base64url'),
      ];
      for (const token of goodTokens) {
        const config = {
          partners: [{ id: 'partner_1', profiles: [] }],
          clients: [{ token, partner_id: 'partner_1', profile_ids: [], pci_dss_compliant: false }],
        };
        expect(parseSandboxConfig(config).isOk()).toBe(true);
      }
    });

    it('rejects a document that is not a config', () => {
      expect(parseSandboxConfig(null)._unsafeUnwrapErr().issues[0]?.path).toBe('(root)');
      expect(
        parseSandboxConfig({ partners: [] })
          ._unsafeUnwrapErr()
          .issues.map((issue) => issue.path),
      ).toEqual(['clients']);
    });
  });
});

describe('createMemoryEventSink', () => {
  const record = makeRecord();

  it('records published events in order', async () => {
    const sink = createMemoryEventSink();
    const events = [makeEvent(record), makeEvent(record, 'payment.expired')];
    for (const event of events) await expectOk(sink.publish(event));
    expect(sink.events()).toStrictEqual(events);
    expect(isDeepFrozen(sink.events()[0])).toBe(true);
    sink.clear();
    expect(sink.events()).toEqual([]);
  });

  it('fails injected publishes without recording them', async () => {
    const sink = createMemoryEventSink();
    sink.injectFailure();
    expect((await expectErr(sink.publish(makeEvent(record)))).code).toBe('unavailable');
    expect(sink.events()).toEqual([]);
    await expectOk(sink.publish(makeEvent(record)));
    expect(sink.events()).toHaveLength(1);
  });

  it('asks failOn for every event', async () => {
    const sink = createMemoryEventSink({
      failOn: (event) =>
        event.type === 'payment.failed' ? { code: 'unavailable', message: 'no', retryable: true } : null,
    });
    await expectErr(sink.publish(makeEvent(record, 'payment.failed')));
    await expectOk(sink.publish(makeEvent(record, 'payment.succeeded')));
    expect(sink.events().map((event) => event.type)).toEqual(['payment.succeeded']);
  });
});

describe('createTestClock', () => {
  it('starts at 2026-01-15T12:00:00Z by default and moves only when told', () => {
    const clock = createTestClock();
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(clock.advance(61 * MINUTE)).toBe(DEFAULT_TEST_CLOCK_START + 61 * MINUTE);
    expect(clock.now()).toBe(DEFAULT_TEST_CLOCK_START + 61 * MINUTE);
    clock.set(5);
    expect(clock.now()).toBe(5);
    expect(createTestClock(42).now()).toBe(42);
  });

  it('refuses to go backwards with advance or to leave the number line', () => {
    const clock = createTestClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(DEFAULT_TEST_CLOCK_START);
  });
});

describe('createSequentialIdGenerator', () => {
  it('counts in 32 hex digits', () => {
    const ids = createSequentialIdGenerator();
    expect([ids.hex128(), ids.hex128()]).toEqual([
      '00000000000000000000000000000001',
      '00000000000000000000000000000002',
    ]);
    expect(ids.secret()).toBe('test_secret_00000000000000000000000000000001');
  });

  it('keeps seeds apart', () => {
    expect(createSequentialIdGenerator(255).hex128()).toBe('000000ff000000000000000000000001');
    expect(() => createSequentialIdGenerator(-1)).toThrow(RangeError);
    expect(() => createSequentialIdGenerator(2 ** 32)).toThrow(RangeError);
  });

  it('produces ids and URL-safe secrets of the port’s shape', () => {
    const ids = createSequentialIdGenerator(7);
    for (let index = 0; index < 300; index++) {
      expect(ids.hex128()).toMatch(/^[0-9a-f]{32}$/);
      expect(ids.secret()).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    }
  });
});
