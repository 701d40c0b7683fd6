import { createPostgresCredentialStore, createPostgresIdempotencyStore } from '../../adapters/postgres/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { tokenRotationOverHttp } from '../http/support/token-rotation-scenario.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();

// Credentials and Idempotency-Keys in Postgres: the keys are scoped by the client id, which a roll keeps.
tokenRotationOverHttp('postgres', async (config, clock) => {
  await resetTables(db.pool);
  const credentials = createPostgresCredentialStore({ pool: db.pool, clock });
  await expectOk(credentials.importConfig(config));
  return { credentials, idempotency: createPostgresIdempotencyStore({ pool: db.pool }), close: async () => undefined };
});
