import type pg from 'pg';
import { createPostgresCredentialStore, type PostgresCredentialStore } from './credential-store.js';
import { resolveConnection, type PostgresConnectionOptions } from './connection.js';
import { createPostgresIdempotencyStore, type PostgresIdempotencyStore } from './idempotency-store.js';
import { migrate, type MigrationError, type MigrationReport } from './migrate.js';
import {
  createPostgresPaymentRepository,
  type PostgresPaymentRepository,
  type PostgresPaymentRepositoryTuning,
} from './payment-repository.js';

export type PostgresAdaptersOptions = PostgresConnectionOptions &
  PostgresPaymentRepositoryTuning & {
    /** Bring the schema up to date first (`migrate`). Default true. */
    readonly migrate?: boolean;
  };

/** Every Postgres adapter on one pool. */
export interface PostgresAdapters {
  readonly pool: pg.Pool;
  readonly repository: PostgresPaymentRepository;
  readonly idempotency: PostgresIdempotencyStore;
  readonly credentials: PostgresCredentialStore;
  /** What `migrate` did, when it ran. */
  readonly migration: MigrationReport | null;
  /** Releases the outbox lease and ends the pool if it was created here. */
  close(): Promise<void>;
}

/**
 * The payment repository, idempotency store and credential store on one pool (for a host such
 * as the sandbox's `--database-url`), after migrating the schema unless told not to.
 * Rejects with the `MigrationError` message when migrating fails.
 */
export async function createPostgresAdapters(options: PostgresAdaptersOptions): Promise<PostgresAdapters> {
  const connection = resolveConnection(options);
  const { pool } = connection;
  let migration: MigrationReport | null = null;
  if (options.migrate ?? true) {
    const migrated = await migrate(pool);
    if (migrated.isErr()) {
      await connection.close();
      throw new PostgresMigrationFailed(migrated.error);
    }
    migration = migrated.value;
  }
  const shared = {
    pool,
    ...(options.preparedStatements === undefined ? {} : { preparedStatements: options.preparedStatements }),
  };
  const repository = createPostgresPaymentRepository({
    ...shared,
    ...(options.claimLeaseMs === undefined ? {} : { claimLeaseMs: options.claimLeaseMs }),
    ...(options.outboxLeaseMs === undefined ? {} : { outboxLeaseMs: options.outboxLeaseMs }),
    ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
  });
  return {
    pool,
    repository,
    idempotency: createPostgresIdempotencyStore(shared),
    credentials: createPostgresCredentialStore(shared),
    migration,
    close: async () => {
      await repository.close();
      await connection.close();
    },
  };
}

/** Thrown by `createPostgresAdapters` when the schema could not be migrated. */
export class PostgresMigrationFailed extends Error {
  override readonly name = 'PostgresMigrationFailed';
  constructor(readonly failure: MigrationError) {
    super(failure.message);
  }
}
