import { describe, expect, it } from 'vitest';
import { createPostgresCredentialStore } from '../../adapters/postgres/index.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';

// Found by a security review: a config client with the token "a" worked.

const db = useMigratedDatabase();

describe('importConfig and the strength of tokens', () => {
  it('importConfig refuses a weak token, naming the client and not the token, and changes nothing', async () => {
    await resetTables(db.pool);
    const first = token('first');
    const store = createPostgresCredentialStore({ pool: db.pool });
    await expectOk(store.importConfig(configWith(first)));
    for (const weak of ['a', 'token-of-b-0123456789', `tok_${'Q'.repeat(60)}`]) {
      const error = await expectErr(store.importConfig(configWith(first, weak)));
      expect(error).toMatchObject({ code: 'invalid_config', retryable: false });
      expect(error.message).toContain('clients[1].token: is too weak');
      if (weak.length > 1) expect(error.message).not.toContain(weak);
      expect(await expectOk(store.authenticate(weak))).toBeNull();
    }
    expect((await expectOk(store.authenticate(first)))?.id).toBe(clientIdOf(first));
  });
});
