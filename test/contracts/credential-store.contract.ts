import { createHash, randomBytes } from 'node:crypto';
import type { Result } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  CredentialProvisioning,
  ProvisioningFailure,
  SandboxConfig,
  TestClock,
} from '../../adapters/memory/index.js';
import type { Client, CredentialStore } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { expectErr, expectOk } from './payment-repository.contract.js';
import { T0 } from './fixtures.js';

/** A credential store under test, on a clock the test moves, and how to dispose of it. */
export interface CredentialStoreHarness {
  /** Must hold exactly the config's profiles and clients, with `clock` as its clock. */
  readonly store: CredentialStore & CredentialProvisioning;
  /** Starts at `T0`. */
  readonly clock: TestClock;
  /** Everything the store keeps of its clients, tokens and profiles, as text (Postgres: the rows as JSON). */
  stored(): Promise<string>;
  close(): Promise<void>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A token no other test run has: the checks that no token is stored or repeated look for it. 192
 * random bits, so that it is strong enough (`API_TOKEN_STRENGTH_RULE`) whatever characters it drew.
 */
const newToken = (label: string): string => `tok_${label}_${randomBytes(24).toString('base64url')}`;

/** A provisioning call, for a list of calls that must all be refused alike. */
type ProvisioningCall = () => PortResult<unknown, ProvisioningFailure>;

const sha256Hex = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A store under test that keeps the id it shows of each token, and checks that it shows it the same ever after. */
function rememberingIds(
  inner: CredentialStore & CredentialProvisioning,
  remember: (token: string, tokenId: string) => void,
): CredentialStore & CredentialProvisioning {
  return {
    authenticate: async (token) => {
      const found = await inner.authenticate(token);
      if (found.isOk() && found.value !== null) remember(token, found.value.tokenId ?? 'no tokenId');
      return found;
    },
    findProfile: (profileId) => inner.findProfile(profileId),
    putClient: (client) => inner.putClient(client),
    removeClient: (token) => inner.removeClient(token),
    addToken: async (request) => {
      const added = await inner.addToken(request);
      if (added.isOk()) remember(request.token, added.value.tokenId);
      return added;
    },
    rollToken: async (roll) => {
      const rolled = await inner.rollToken(roll);
      if (rolled.isOk()) {
        remember(roll.token, rolled.value.added.tokenId);
        if ('token' in roll.old) remember(roll.old.token, rolled.value.retired.tokenId);
      }
      return rolled;
    },
    revokeToken: (ref) => inner.revokeToken(ref),
    listTokens: (clientId) => inner.listTokens(clientId),
  };
}

/**
 * Everything the credential stores promise (`CredentialStore`, and `CredentialProvisioning` with
 * rotation), for any adapter. `makeHarness` gets a sandbox config (partners `partner_a` with
 * `profile_a1`, `profile_a2`, and `partner_b` with `profile_b1`; two clients) and is called before
 * every test. The suite uses the port and the provisioning interface only.
 *
 * Beyond their doc comments it pins down:
 * - expiry is judged by the store's clock: a token works up to the millisecond before `expiresAt`;
 * - a roll keeps the client's id, and never lengthens an expiry the old token had;
 * - `putClient` answers `client_exists` / `token_in_use`, never `unavailable`, for an id or token
 *   that another client holds;
 * - `tokenId` is 16 hex digits, random: not the SHA-256 prefix (the request log shows it), another
 *   for each token, and the same for one token in every answer (authenticate, add, roll, listing);
 * - a token weaker than `API_TOKEN_STRENGTH_RULE` is refused by `putClient`, `addToken`, `rollToken`;
 * - a retired token (revoked, rolled away from, expired, deleted with its client) never works
 *   again: every way in (`putClient`, `addToken`, `rollToken`) answers `token_retired`, for any
 *   client; and one seen expired stays expired when the clock goes back;
 * - no answer, listing, error message or stored value contains a token.
 */
export function credentialStoreContract(
  name: string,
  makeHarness: (config: SandboxConfig) => Promise<CredentialStoreHarness>,
): void {
  describe(`CredentialStore contract: ${name}`, () => {
    let harness: CredentialStoreHarness;
    let store: CredentialStore & CredentialProvisioning;
    let clock: TestClock;
    let tokenA: string;
    let tokenB: string;
    /** The ids of the clients of `tokenA` and `tokenB`, as the store derived them. */
    let clientA: string;
    let clientB: string;
    /** Every token a test used: none may appear in an error message or a stored value. */
    let used: string[];
    /** Every error message a test got. */
    let messages: string[];
    /** The id the store showed of each token (`rememberingIds`). */
    let ids: Map<string, string>;

    /** Keeps a token's id the first time, and checks it later: one id per token, random. */
    const remember = (token: string, tokenId: string): void => {
      const known = ids.get(token);
      if (known !== undefined) {
        expect(tokenId).toBe(known);
        return;
      }
      expect(tokenId).toMatch(/^[0-9a-f]{16}$/);
      expect(sha256Hex(token)).not.toContain(tokenId);
      expect([...ids.values()]).not.toContain(tokenId);
      ids.set(token, tokenId);
    };

    /** The id the store showed of a token (by `authenticate`, `addToken` or `rollToken`). */
    const tokenIdOf = (token: string): string => {
      const tokenId = ids.get(token);
      if (tokenId === undefined) throw new Error('the store showed no id of this token yet');
      return tokenId;
    };

    beforeEach(async () => {
      tokenA = newToken('a');
      tokenB = newToken('b');
      used = [tokenA, tokenB];
      messages = [];
      ids = new Map();
      harness = await makeHarness({
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
            token: tokenA,
            partner_id: 'partner_a',
            profile_ids: ['profile_a1', 'profile_a2'],
            pci_dss_compliant: true,
          },
          { token: tokenB, partner_id: 'partner_b', profile_ids: ['profile_b1'], pci_dss_compliant: false },
        ],
      });
      store = rememberingIds(harness.store, remember);
      clock = harness.clock;
      clientA = (await expectOk(store.authenticate(tokenA)))?.id ?? 'no client A';
      clientB = (await expectOk(store.authenticate(tokenB)))?.id ?? 'no client B';
    });

    afterEach(async () => {
      for (const message of messages) for (const token of used) expect(message).not.toContain(token);
      await harness.close();
    });

    const fresh = (label: string): string => {
      const token = newToken(label);
      used.push(token);
      return token;
    };

    /** The error of a refused call, its message kept for the check that it repeats no token. */
    const refusal = async <T, E extends { readonly code: string; readonly message: string }>(
      result: Result<T, E> | PromiseLike<Result<T, E>>,
    ): Promise<E> => {
      const error = await expectErr(result);
      messages.push(error.message);
      return error;
    };

    /**
     * The client a token authenticates as, without `tokenId` (which `rememberingIds` checks: the
     * id of that very token), so the same client is equal whichever of its tokens found it.
     */
    const who = async (token: string): Promise<Client | null> => {
      const client = await expectOk(store.authenticate(token));
      if (client === null) return null;
      const { tokenId, ...rest } = client;
      expect(tokenId).toBe(tokenIdOf(token));
      return rest;
    };
    const idOf = async (token: string): Promise<string | null> => (await who(token))?.id ?? null;

    describe('authenticate', () => {
      it('finds the client of a token, and no one for an unknown token', async () => {
        expect(clientA).toMatch(/^client_[0-9a-f]{16}$/);
        expect(clientB).toMatch(/^client_[0-9a-f]{16}$/);
        expect(clientB).not.toBe(clientA);
        expect(await who(tokenA)).toStrictEqual({
          id: clientA,
          partnerId: 'partner_a',
          profileIds: ['profile_a1', 'profile_a2'],
          pciDssCompliant: true,
        });
        expect(await who(tokenB)).toStrictEqual({
          id: clientB,
          partnerId: 'partner_b',
          profileIds: ['profile_b1'],
          pciDssCompliant: false,
        });
        expect(await who(fresh('unknown'))).toBeNull();
      });

      // Found by a security review: the id was the first 16 hex digits of the token's SHA-256, so a
      // weak token was one lookup away from anyone reading the request log.
      it('names the token by an id of its own: random, the same on every call, another for each token', async () => {
        const first = (await expectOk(store.authenticate(tokenA)))?.tokenId;
        expect(first).toMatch(/^[0-9a-f]{16}$/);
        expect(sha256Hex(tokenA)).not.toContain(first);
        expect((await expectOk(store.authenticate(tokenA)))?.tokenId).toBe(first);
        expect((await expectOk(store.authenticate(tokenB)))?.tokenId).not.toBe(first);
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([
          { tokenId: first, createdAt: T0, expiresAt: null },
        ]);
      });

      it('answers no one, never an error, for a token of another length or a near miss', async () => {
        for (const token of [
          '',
          'a',
          tokenA.slice(0, -1),
          `${tokenA}x`,
          `${tokenA} `,
          ` ${tokenA}`,
          tokenA.toUpperCase(),
          `${tokenA}${tokenA}`,
          'a'.repeat(4096),
          'a'.repeat(4097),
          'a'.repeat(100_000),
          'é🙂\u0000',
        ]) {
          expect(await who(token)).toBeNull();
        }
      });
    });

    describe('addToken and listTokens', () => {
      it('gives a client a second token: both authenticate as the same client, listed without revealing them', async () => {
        const second = fresh('second');
        clock.advance(1000);
        expect(await expectOk(store.addToken({ clientId: clientA, token: second }))).toStrictEqual({
          tokenId: tokenIdOf(second),
          createdAt: T0 + 1000,
          expiresAt: null,
        });
        expect(await who(second)).toStrictEqual(await who(tokenA));
        const listing = await expectOk(store.listTokens(clientA));
        expect(listing).toStrictEqual([
          { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: null },
          { tokenId: tokenIdOf(second), createdAt: T0 + 1000, expiresAt: null },
        ]);
        expect(tokenIdOf(second)).toMatch(/^[0-9a-f]{16}$/);
        const text = JSON.stringify(listing);
        for (const token of used) expect(text).not.toContain(token);
        expect(await expectOk(store.listTokens(clientB))).toHaveLength(1);
        expect(await expectOk(store.listTokens('client_nobody'))).toBeNull();
      });

      it('a token with an expiry works until the millisecond before it, then as no one', async () => {
        const temporary = fresh('temporary');
        await expectOk(store.addToken({ clientId: clientA, token: temporary, expiresAt: T0 + HOUR }));
        clock.set(T0 + HOUR - 1);
        expect(await idOf(temporary)).toBe(clientA);
        expect(await expectOk(store.listTokens(clientA))).toHaveLength(2);
        clock.set(T0 + HOUR);
        expect(await who(temporary)).toBeNull();
        expect(await idOf(tokenA)).toBe(clientA);
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([
          { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: null },
        ]);
      });

      it('refuses an unknown client, a token in use, a malformed token or expiry, and stores nothing', async () => {
        const next = fresh('next');
        expect(await refusal(store.addToken({ clientId: 'client_nobody', token: next }))).toMatchObject({
          code: 'unknown_client',
          retryable: false,
        });
        for (const token of [tokenA, tokenB]) {
          expect(await refusal(store.addToken({ clientId: clientA, token }))).toMatchObject({
            code: 'token_in_use',
            retryable: false,
          });
        }
        const spaced = fresh('with space');
        for (const request of [
          { clientId: clientA, token: spaced },
          { clientId: clientA, token: 'a'.repeat(4097) },
          { clientId: clientA, token: '' },
          { clientId: clientA, token: next, expiresAt: T0 },
          { clientId: clientA, token: next, expiresAt: T0 - 1 },
          { clientId: clientA, token: next, expiresAt: T0 + 1.5 },
          { clientId: clientA, token: next, expiresAt: Number.NaN },
          { clientId: clientA, token: next, expiresAt: Number.POSITIVE_INFINITY },
        ]) {
          expect(await refusal(store.addToken(request))).toMatchObject({ code: 'invalid_token', retryable: false });
        }
        expect(await who(next)).toBeNull();
        expect(await idOf(tokenB)).toBe(clientB);
        expect(await expectOk(store.listTokens(clientA))).toHaveLength(1);
      });
    });

    describe('rollToken', () => {
      it('adds the new token to the same client; the old one works for 24 h by default, then as no one', async () => {
        const next = fresh('next');
        clock.advance(5000);
        const rolled = await expectOk(store.rollToken({ old: { token: tokenA }, token: next }));
        expect(rolled).toStrictEqual({
          added: { tokenId: tokenIdOf(next), createdAt: T0 + 5000, expiresAt: null },
          retired: { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: T0 + 5000 + DAY },
        });
        expect(await idOf(next)).toBe(clientA);
        expect(await who(next)).toStrictEqual(await who(tokenA));
        clock.set(T0 + 5000 + DAY - 1);
        expect(await idOf(tokenA)).toBe(clientA);
        expect(await idOf(next)).toBe(clientA);
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([rolled.retired, rolled.added]);
        clock.set(T0 + 5000 + DAY);
        expect(await who(tokenA)).toBeNull();
        expect(await idOf(next)).toBe(clientA);
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([rolled.added]);
        // An old token that no longer works cannot be rolled again.
        expect(await refusal(store.rollToken({ old: { token: tokenA }, token: fresh('late') }))).toMatchObject({
          code: 'unknown_token',
        });
      });

      it('with an overlap of 0 revokes the old token at once', async () => {
        const next = fresh('next');
        const rolled = await expectOk(store.rollToken({ old: { token: tokenA }, token: next, overlapMs: 0 }));
        expect(rolled.retired).toStrictEqual({ tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: T0 });
        expect(await who(tokenA)).toBeNull();
        expect(await idOf(next)).toBe(clientA);
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([rolled.added]);
      });

      it('rolls a token named by its id, with the overlap chosen, and never lengthens an earlier expiry', async () => {
        const [second, third, fourth] = [fresh('second'), fresh('third'), fresh('fourth')];
        await expectOk(store.addToken({ clientId: clientA, token: second, expiresAt: T0 + HOUR }));
        const kept = await expectOk(
          store.rollToken({ old: { clientId: clientA, tokenId: tokenIdOf(second) }, token: third, overlapMs: DAY }),
        );
        expect(kept.retired.expiresAt).toBe(T0 + HOUR);
        const shortened = await expectOk(
          store.rollToken({ old: { clientId: clientA, tokenId: tokenIdOf(tokenA) }, token: fourth, overlapMs: MINUTE }),
        );
        expect(shortened.retired).toStrictEqual({ tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: T0 + MINUTE });
        clock.set(T0 + MINUTE);
        expect(await who(tokenA)).toBeNull();
        expect(await idOf(second)).toBe(clientA);
        clock.set(T0 + HOUR);
        expect(await who(second)).toBeNull();
        for (const token of [third, fourth]) expect(await idOf(token)).toBe(clientA);
        // Both made at T0: in an order of the store's.
        expect((await expectOk(store.listTokens(clientA)))?.map((token) => token.tokenId).sort()).toEqual(
          [tokenIdOf(third), tokenIdOf(fourth)].sort(),
        );
      });

      it('refuses, changing nothing: an old token that does not work, an unknown client, a new token in use, a malformed token or overlap', async () => {
        const next = fresh('next');
        const refused = async (roll: Parameters<CredentialProvisioning['rollToken']>[0], code: string) =>
          expect(await refusal(store.rollToken(roll))).toMatchObject({ code, retryable: false });
        await refused({ old: { token: fresh('unknown') }, token: next }, 'unknown_token');
        await refused(
          { old: { clientId: 'client_nobody', tokenId: tokenIdOf(tokenA) }, token: next },
          'unknown_client',
        );
        await refused({ old: { clientId: clientA, tokenId: tokenIdOf(tokenB) }, token: next }, 'unknown_token');
        await refused({ old: { clientId: clientA, tokenId: 'not-a-token-id' }, token: next }, 'unknown_token');
        await refused({ old: { clientId: clientA, tokenId: tokenA } as never, token: next }, 'unknown_token');
        await refused({ old: { token: tokenA }, token: tokenA }, 'token_in_use');
        await refused({ old: { token: tokenA }, token: tokenB }, 'token_in_use');
        await refused({ old: { token: tokenA }, token: fresh('with space') }, 'invalid_token');
        await refused({ old: { token: tokenA }, token: 'a'.repeat(4097) }, 'invalid_token');
        for (const overlapMs of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER]) {
          await refused({ old: { token: tokenA }, token: next, overlapMs }, 'invalid_token');
        }
        expect(await who(next)).toBeNull();
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([
          { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: null },
        ]);
        clock.advance(10 * 365 * DAY);
        expect(await idOf(tokenA)).toBe(clientA);
        expect(await idOf(tokenB)).toBe(clientB);
      });

      it('of two rolls of one token at once with an overlap of 0, exactly one succeeds', async () => {
        const [first, second] = [fresh('first'), fresh('second')];
        const results = await Promise.all(
          [first, second].map(async (token) => store.rollToken({ old: { token: tokenA }, token, overlapMs: 0 })),
        );
        expect(results.filter((result) => result.isOk())).toHaveLength(1);
        const lost = results.find((result) => result.isErr());
        expect(await refusal(lost!)).toMatchObject({ code: 'unknown_token' });
        expect(await who(tokenA)).toBeNull();
        expect(await expectOk(store.listTokens(clientA))).toHaveLength(1);
      });
    });

    describe('revokeToken', () => {
      it('revokes one token at once; the client keeps its others; its last one takes the client with it', async () => {
        const second = fresh('second');
        await expectOk(store.addToken({ clientId: clientA, token: second }));
        expect(await expectOk(store.revokeToken({ token: tokenA }))).toBe(true);
        expect(await who(tokenA)).toBeNull();
        expect(await idOf(second)).toBe(clientA);
        expect(await expectOk(store.revokeToken({ token: tokenA }))).toBe(false);
        expect(await expectOk(store.listTokens(clientA))).toHaveLength(1);

        expect(await expectOk(store.revokeToken({ clientId: clientA, tokenId: tokenIdOf(second) }))).toBe(true);
        expect(await who(second)).toBeNull();
        expect(await expectOk(store.listTokens(clientA))).toBeNull();
        expect(await refusal(store.addToken({ clientId: clientA, token: fresh('again') }))).toMatchObject({
          code: 'unknown_client',
        });
        expect(await idOf(tokenB)).toBe(clientB);
      });

      it('answers false for a token that does not work, another client’s, or a malformed id', async () => {
        const temporary = fresh('temporary');
        await expectOk(store.addToken({ clientId: clientA, token: temporary, expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE);
        for (const ref of [
          { token: fresh('unknown') },
          { token: temporary },
          { clientId: clientA, tokenId: tokenIdOf(temporary) },
          { clientId: clientA, tokenId: tokenIdOf(tokenB) },
          { clientId: 'client_nobody', tokenId: tokenIdOf(tokenA) },
          { clientId: clientA, tokenId: 'zz' },
        ]) {
          expect(await expectOk(store.revokeToken(ref))).toBe(false);
        }
        expect(await idOf(tokenA)).toBe(clientA);
        expect(await idOf(tokenB)).toBe(clientB);
      });
    });

    // Found by a security review: a client with the token "a" worked, and a weak token can be found
    // from its digest or its client's id by trying.
    it('refuses a token too weak to be safe, whichever way it comes in, naming no token', async () => {
      const base = { partnerId: 'partner_a', profileIds: ['profile_a1'], pciDssCompliant: false };
      const weak = [
        'secret-token-xyz',
        'token-of-b-0123456789',
        `tok_${'Q'.repeat(60)}`,
        'aB3-'.repeat(16),
        'sandbox_hosted_only_token',
      ];
      used.push(...weak);
      for (const token of ['a', ...weak]) {
        expect(await refusal(store.putClient({ ...base, token }))).toMatchObject({
          code: 'invalid_client',
          message: expect.stringContaining('too weak'),
          retryable: false,
        });
        const calls: ProvisioningCall[] = [
          () => store.addToken({ clientId: clientA, token }),
          () => store.rollToken({ old: { token: tokenA }, token }),
        ];
        for (const call of calls) {
          expect(await refusal(call())).toMatchObject({
            code: 'invalid_token',
            message: expect.stringContaining('too weak'),
            retryable: false,
          });
        }
        expect(await who(token)).toBeNull();
      }
      expect(await expectOk(store.listTokens(clientA))).toHaveLength(1);
      expect(await idOf(tokenA)).toBe(clientA);
    });

    describe('putClient and removeClient', () => {
      it('registers a client, and updates the one that holds the token, also after a roll', async () => {
        const tokenC = fresh('c');
        const c = await expectOk(
          store.putClient({
            token: tokenC,
            partnerId: 'partner_a',
            profileIds: ['profile_a1'],
            pciDssCompliant: false,
          }),
        );
        expect(c.id).toMatch(/^client_[0-9a-f]{16}$/);
        expect(c).toStrictEqual({
          id: c.id,
          partnerId: 'partner_a',
          profileIds: ['profile_a1'],
          pciDssCompliant: false,
        });
        expect(await who(tokenC)).toStrictEqual(c);

        const next = fresh('next');
        await expectOk(store.rollToken({ old: { token: tokenA }, token: next }));
        const updated = await expectOk(
          store.putClient({ token: next, partnerId: 'partner_a', profileIds: ['profile_a2'], pciDssCompliant: false }),
        );
        expect(updated).toStrictEqual({
          id: clientA,
          partnerId: 'partner_a',
          profileIds: ['profile_a2'],
          pciDssCompliant: false,
        });
        expect(await who(tokenA)).toStrictEqual(updated);
        expect(await who(next)).toStrictEqual(updated);
        const again = await expectOk(
          store.putClient({
            token: tokenA,
            id: clientA,
            partnerId: 'partner_a',
            profileIds: ['profile_a1'],
            pciDssCompliant: true,
          }),
        );
        expect(again).toMatchObject({ id: clientA, profileIds: ['profile_a1'], pciDssCompliant: true });
        expect(await expectOk(store.listTokens(clientA))).toHaveLength(2);
      });

      // The primary key on the client id answered `unavailable` (a unique violation) for these.
      it('answers a clean error, never unavailable, for an id or token another client holds', async () => {
        const base = { partnerId: 'partner_a', profileIds: ['profile_a1'], pciDssCompliant: false };
        const newcomer = fresh('newcomer');
        expect(await refusal(store.putClient({ ...base, token: newcomer, id: clientA }))).toMatchObject({
          code: 'client_exists',
          retryable: false,
        });
        expect(await who(newcomer)).toBeNull();
        expect(await refusal(store.putClient({ ...base, token: tokenB, id: clientA }))).toMatchObject({
          code: 'token_in_use',
          retryable: false,
        });
        expect(await refusal(store.putClient({ ...base, token: tokenB, id: 'client_custom' }))).toMatchObject({
          code: 'token_in_use',
        });
        expect(await expectOk(store.listTokens('client_custom'))).toBeNull();

        // A token rolled away from: its derived id is its client's, which now holds another token.
        await expectOk(store.rollToken({ old: { token: tokenA }, token: fresh('next'), overlapMs: 0 }));
        expect(await refusal(store.putClient({ ...base, token: tokenA }))).toMatchObject({ code: 'client_exists' });
        expect(await who(tokenA)).toBeNull();
        expect(await who(tokenB)).toMatchObject({ partnerId: 'partner_b', profileIds: ['profile_b1'] });

        expect(await refusal(store.putClient({ ...base, token: newcomer, profileIds: ['profile_b1'] }))).toMatchObject({
          code: 'invalid_client',
        });
      });

      it('of two registrations of one new token at once, both answer the one client', async () => {
        const token = fresh('twice');
        const request = { token, partnerId: 'partner_a', profileIds: ['profile_a1'], pciDssCompliant: false };
        const [first, second] = await Promise.all([
          Promise.resolve(store.putClient(request)),
          Promise.resolve(store.putClient(request)),
        ]);
        const client = await expectOk(first);
        expect(await expectOk(second)).toStrictEqual(client);
        expect(await expectOk(store.listTokens(client.id))).toHaveLength(1);
      });

      it('removeClient deletes the client of a token with all its tokens', async () => {
        const second = fresh('second');
        await expectOk(store.addToken({ clientId: clientA, token: second }));
        expect(await expectOk(store.removeClient(second))).toBe(true);
        expect(await who(tokenA)).toBeNull();
        expect(await who(second)).toBeNull();
        expect(await expectOk(store.listTokens(clientA))).toBeNull();
        expect(await expectOk(store.removeClient(second))).toBe(false);
        expect(await idOf(tokenB)).toBe(clientB);
      });
    });

    // Found by a security review: a revoked, rolled-away or expired token could be registered
    // again (putClient, addToken, or as the new token of a roll) and then let its holder in again.
    describe('retired tokens', () => {
      const base = { partnerId: 'partner_a', profileIds: ['profile_a1'], pciDssCompliant: false };

      /** Every way a token enters the store refuses `retired`, for either client and a new one. */
      const expectRefusedEverywhere = async (retired: string): Promise<void> => {
        const calls: ProvisioningCall[] = [
          () => store.addToken({ clientId: clientA, token: retired }),
          () => store.addToken({ clientId: clientB, token: retired, expiresAt: T0 + 10 * DAY }),
          () => store.putClient({ ...base, token: retired, id: 'client_newcomer' }),
          () => store.rollToken({ old: { token: tokenB }, token: retired, overlapMs: 0 }),
        ];
        for (const call of calls) {
          expect(await refusal(call())).toMatchObject({ code: 'token_retired', retryable: false });
        }
        expect(await who(retired)).toBeNull();
        expect(await idOf(tokenB)).toBe(clientB);
        expect(await expectOk(store.listTokens('client_newcomer'))).toBeNull();
      };

      it('a revoked token is refused everywhere, the client keeping its others', async () => {
        const second = fresh('second');
        await expectOk(store.addToken({ clientId: clientA, token: second }));
        expect(await expectOk(store.revokeToken({ clientId: clientA, tokenId: tokenIdOf(second) }))).toBe(true);
        await expectRefusedEverywhere(second);
        expect(await refusal(store.putClient({ ...base, token: second }))).toMatchObject({ code: 'token_retired' });
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([
          { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: null },
        ]);
      });

      it('a token rolled away from is refused everywhere, at once (overlap 0) or after its overlap', async () => {
        const [next, later] = [fresh('next'), fresh('later')];
        await expectOk(store.rollToken({ old: { token: tokenA }, token: next, overlapMs: 0 }));
        await expectRefusedEverywhere(tokenA);

        await expectOk(store.rollToken({ old: { token: next }, token: later, overlapMs: MINUTE }));
        clock.set(T0 + MINUTE);
        await expectRefusedEverywhere(next);
        expect(await idOf(later)).toBe(clientA);
      });

      it('a token that expired is refused everywhere, whether or not anyone presented it since', async () => {
        const [seen, unseen] = [fresh('seen'), fresh('unseen')];
        await expectOk(store.addToken({ clientId: clientA, token: seen, expiresAt: T0 + HOUR }));
        await expectOk(store.addToken({ clientId: clientA, token: unseen, expiresAt: T0 + HOUR }));
        clock.set(T0 + HOUR);
        expect(await who(seen)).toBeNull();
        await expectRefusedEverywhere(seen);
        await expectRefusedEverywhere(unseen);
        expect(await idOf(tokenA)).toBe(clientA);
      });

      it('the tokens of a removed client, or of one whose last token was revoked, are refused everywhere', async () => {
        const [c, second] = [fresh('c'), fresh('second')];
        const client = await expectOk(store.putClient({ ...base, token: c }));
        await expectOk(store.addToken({ clientId: client.id, token: second }));
        expect(await expectOk(store.removeClient(c))).toBe(true);
        for (const token of [c, second]) {
          expect(await refusal(store.putClient({ ...base, token }))).toMatchObject({ code: 'token_retired' });
          await expectRefusedEverywhere(token);
        }
        expect(await expectOk(store.revokeToken({ token: tokenA }))).toBe(true);
        expect(await expectOk(store.listTokens(clientA))).toBeNull();
        // Its id (derived from the token) is free again, but the token is not.
        expect(await refusal(store.putClient({ ...base, token: tokenA }))).toMatchObject({ code: 'token_retired' });
        expect(await expectOk(store.listTokens(clientA))).toBeNull();
        const calls: ProvisioningCall[] = [
          () => store.addToken({ clientId: clientB, token: tokenA }),
          () => store.putClient({ ...base, token: tokenA, id: 'client_newcomer' }),
          () => store.rollToken({ old: { token: tokenB }, token: tokenA }),
        ];
        for (const call of calls) {
          expect(await refusal(call())).toMatchObject({ code: 'token_retired', retryable: false });
        }
        expect(await who(tokenA)).toBeNull();
      });

      it('a token seen expired stays expired when the clock goes back', async () => {
        const [temporary, rolledTo] = [fresh('temporary'), fresh('rolled-to')];
        await expectOk(store.addToken({ clientId: clientA, token: temporary, expiresAt: T0 + HOUR }));
        await expectOk(store.rollToken({ old: { token: tokenB }, token: rolledTo, overlapMs: HOUR }));
        clock.set(T0 + HOUR);
        expect(await who(temporary)).toBeNull();
        // Seen by a revoke that found it no longer working.
        expect(await expectOk(store.revokeToken({ token: tokenB }))).toBe(false);
        clock.set(T0 + HOUR - 1);
        expect(await who(temporary)).toBeNull();
        expect(await who(tokenB)).toBeNull();
        expect(await expectOk(store.listTokens(clientA))).toStrictEqual([
          { tokenId: tokenIdOf(tokenA), createdAt: T0, expiresAt: null },
        ]);
        expect(await expectOk(store.listTokens(clientB))).toStrictEqual([
          { tokenId: tokenIdOf(rolledTo), createdAt: T0, expiresAt: null },
        ]);
        expect(await refusal(store.rollToken({ old: { token: tokenB }, token: fresh('x') }))).toMatchObject({
          code: 'unknown_token',
        });
      });
    });

    it('keeps tokens only as SHA-256 digests, through adds, rolls and expiries', async () => {
      const [second, third] = [fresh('second'), fresh('third')];
      await expectOk(store.addToken({ clientId: clientA, token: second, expiresAt: T0 + HOUR }));
      await expectOk(store.rollToken({ old: { token: tokenB }, token: third }));
      const revoked = fresh('revoked');
      await expectOk(store.addToken({ clientId: clientA, token: revoked }));
      await expectOk(store.revokeToken({ token: revoked }));
      const text = await harness.stored();
      for (const token of used) expect(text).not.toContain(token);
      // The revoked token's digest is kept too: it is how the store refuses it for good.
      for (const token of [tokenA, tokenB, second, third, revoked]) expect(text).toContain(sha256Hex(token));
    });
  });
}
