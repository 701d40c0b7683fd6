import pg from 'pg';
import { afterAll } from 'vitest';
import { createPostgresSandboxStores } from '../../adapters/postgres/index.js';
import { sandboxOperationStoreContract, sandboxStoresContract } from '../contracts/sandbox-stores.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

sandboxStoresContract('postgres (two pools: two instances)', () => {
  const second = new pg.Pool({ connectionString: db.connectionString, max: 10 });
  second.on('error', () => undefined);
  pools.push(second);
  const one = createPostgresSandboxStores(db.pool);
  const other = createPostgresSandboxStores(second, { preparedStatements: false });
  return Promise.resolve({ authorizations: one.authorizations, challenges: one.challenges, other });
});

sandboxOperationStoreContract('postgres (two pools: two instances)', () => {
  const second = new pg.Pool({ connectionString: db.connectionString, max: 10 });
  second.on('error', () => undefined);
  pools.push(second);
  return Promise.resolve({
    operations: createPostgresSandboxStores(db.pool).operations,
    other: createPostgresSandboxStores(second, { preparedStatements: false }).operations,
  });
});
