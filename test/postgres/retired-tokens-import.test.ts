import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { createPostgresCredentialStore, type PostgresCredentialStore } from '../../adapters/postgres/index.js';
import { T0 } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';
import { useMigratedDatabase } from './support/migrated-database.js';

/**
 * Found in review: an import that gives a config client a token that works now, but for another
 * client the same import deletes (a token added at run time, then written into the config as the
 * client's own, with the client's id changing with it), deleted the token with that client first,
 * so migration 10's trigger retired it and the import failed with an opaque `unavailable`
 * ("Postgres error (PSRT1)") on every start, however often it was retried.
 */
const db = useMigratedDatabase();

async function freshStore(...tokens: string[]): Promise<PostgresCredentialStore> {
  const store = createPostgresCredentialStore({ pool: db.pool, clock: createTestClock(T0) });
  await expectOk(store.importConfig(configWith(...tokens)));
  return store;
}

describe('importConfig of a token that works now, for a client the import deletes', () => {
  it('moves the token to the config client instead of retiring it', async () => {
    const [first, added] = [token('first'), token('added')];
    const store = await freshStore(first);
    await expectOk(store.addToken({ clientId: clientIdOf(first), token: added }));

    // The config now names the added token alone: its client is client_<digest of added>.
    expect(await expectOk(store.importConfig(configWith(added)))).toEqual({ profiles: 1, clients: 1 });
    expect((await expectOk(store.authenticate(added)))?.id).toBe(clientIdOf(added));
    // The token the config left out is retired for good, with its client.
    expect(await expectOk(store.authenticate(first))).toBeNull();
    expect(await expectOk(store.listTokens(clientIdOf(first)))).toBeNull();
    expect(await expectErr(store.addToken({ clientId: clientIdOf(added), token: first }))).toMatchObject({
      code: 'token_retired',
    });
    // A second start with the same config changes nothing and succeeds.
    expect(await expectOk(store.importConfig(configWith(added)))).toEqual({ profiles: 1, clients: 1 });
    expect((await expectOk(store.authenticate(added)))?.id).toBe(clientIdOf(added));
  });

  it('a token rolled to at run time, then written into the config, is moved for every overlap', async () => {
    for (const overlapMs of [0, 60_000]) {
      const [first, rolled] = [token('first'), token('rolled')];
      const store = await freshStore(first);
      await expectOk(store.rollToken({ old: { token: first }, token: rolled, overlapMs }));
      expect(await expectOk(store.importConfig(configWith(rolled)))).toEqual({ profiles: 1, clients: 1 });
      expect((await expectOk(store.authenticate(rolled)))?.id).toBe(clientIdOf(rolled));
      expect(await expectOk(store.authenticate(first))).toBeNull();
      expect(await expectErr(store.importConfig(configWith(first)))).toMatchObject({ code: 'retired_token' });
    }
  });
});
