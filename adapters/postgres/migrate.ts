import { createHash } from 'node:crypto';
import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { PortFailure } from '../../src/ports/port-result.js';
import { classifyPostgresError } from './classify-error.js';
import { checkOut, NO_QUERY_TIMEOUT, type CheckedOutClient } from './connection.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/**
 * - `unavailable`: the database could not be reached or locked (`retryable` says whether to try again);
 * - `migration_failed`: a migration's SQL failed; it was rolled back, and later ones were not run;
 * - `migration_mismatch`: a migration recorded as applied differs from the one shipped (edited after release).
 */
export type MigrationError = PortFailure<'unavailable' | 'migration_failed' | 'migration_mismatch'>;

/** What `migrate` did, and where the schema stands now. */
export interface MigrationReport {
  /** What this call applied, in order (empty when the schema was up to date). */
  readonly applied: readonly { readonly version: number; readonly name: string }[];
  /** The highest version applied to the database now. */
  readonly version: number;
  /** Versions the database has that this package does not know (a newer release migrated it). */
  readonly unknownVersions: readonly number[];
}

/** Options of `migrate`. */
export interface MigrateOptions {
  /** Default: every migration this package ships (`MIGRATIONS`). */
  readonly migrations?: readonly Migration[];
  /** Called after each applied migration. */
  readonly onApplied?: (migration: { readonly version: number; readonly name: string }) => void;
  /** Called once when another migrator holds the lock and this one starts waiting for it. */
  readonly onWaiting?: () => void;
  /**
   * How long to wait for another migrator, in ms, before giving up (`unavailable`, retryable).
   * Default 10 minutes.
   */
  readonly lockWaitMs?: number;
}

/** How often a waiting migrator tries the lock again. */
const LOCK_RETRY_MS = 250;

/** The session advisory lock that serializes migrators ('paystate' in ASCII). */
const MIGRATION_LOCK_KEY = '8097880467283780709';

const checksumOf = (migration: Migration): string => createHash('sha256').update(migration.sql, 'utf8').digest('hex');

function unavailable(error: unknown, doing: string): MigrationError {
  const failure = classifyPostgresError(error);
  return { code: 'unavailable', message: `${doing}: ${failure.message}`, retryable: failure.retryable };
}

/** A statement of `migrate`, without the pool's client-side time-out: a migration may rightly take long. */
function query<R extends QueryResultRow = QueryResultRow>(
  client: PoolClient,
  text: string,
  values?: unknown[],
): Promise<QueryResult<R>> {
  const config: QueryConfig & { readonly query_timeout: number } = {
    text,
    ...(values !== undefined && { values }),
    query_timeout: NO_QUERY_TIMEOUT,
  };
  return client.query<R>(config);
}

interface AppliedRow {
  readonly version: number;
  readonly name: string;
  readonly checksum: string;
}

async function migrateWith(
  client: PoolClient,
  options: MigrateOptions,
): Promise<Result<MigrationReport, MigrationError>> {
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version);
  await query(
    client,
    `
    CREATE TABLE IF NOT EXISTS paystate_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
  );
  const { rows } = await query<AppliedRow>(client, 'SELECT version, name, checksum FROM paystate_migrations');
  const applied = new Map(rows.map((row) => [row.version, row]));
  const known = new Set(migrations.map((migration) => migration.version));

  for (const migration of migrations) {
    const row = applied.get(migration.version);
    if (row !== undefined && row.checksum !== checksumOf(migration)) {
      return err({
        code: 'migration_mismatch',
        message: `Migration ${migration.version} (${migration.name}) differs from the one applied to this database`,
        retryable: false,
      });
    }
  }

  const done: { version: number; name: string }[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    try {
      await query(client, 'BEGIN');
      await query(client, 'SET LOCAL statement_timeout = 0');
      await query(client, migration.sql);
      await query(client, 'INSERT INTO paystate_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksumOf(migration),
      ]);
      await query(client, 'COMMIT');
    } catch (error) {
      await query(client, 'ROLLBACK').catch(() => undefined);
      const failure = classifyPostgresError(error);
      return err({
        code: failure.retryable ? 'unavailable' : 'migration_failed',
        message: `Migration ${migration.version} (${migration.name}) was rolled back: ${failure.message}`,
        retryable: failure.retryable,
      });
    }
    done.push({ version: migration.version, name: migration.name });
    options.onApplied?.({ version: migration.version, name: migration.name });
  }

  const versions = [...applied.keys(), ...done.map((migration) => migration.version)];
  return ok({
    applied: done,
    version: versions.length === 0 ? 0 : Math.max(...versions),
    unknownVersions: [...applied.keys()].filter((version) => !known.has(version)).sort((a, b) => a - b),
  });
}

/**
 * Brings the schema up to date; safe from several instances at once (an advisory lock), each migration
 * in its own transaction with its row (docs/postgres.md#migrations).
 */
export function migrate(pool: Pool, options: MigrateOptions = {}): ResultAsync<MigrationReport, MigrationError> {
  const run = async (): Promise<Result<MigrationReport, MigrationError>> => {
    let checkedOut: CheckedOutClient;
    try {
      checkedOut = await checkOut(pool);
    } catch (error) {
      return err(unavailable(error, 'Could not connect to migrate'));
    }
    const { client } = checkedOut;
    let broken: unknown = undefined;
    let locked = false;
    try {
      try {
        // The pool's statement time-out must not cut the wait for another migrator short.
        await query(client, 'SET statement_timeout = 0');
        const deadline = Date.now() + (options.lockWaitMs ?? 10 * 60 * 1000);
        for (let waiting = false; ; waiting = true) {
          const { rows } = await query<{ locked: boolean }>(
            client,
            `SELECT pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) AS locked`,
          );
          if (rows[0]?.locked === true) break;
          if (Date.now() >= deadline) {
            return err({
              code: 'unavailable',
              message: 'Another migrator has held the migration lock too long; try again when it has finished',
              retryable: true,
            });
          }
          if (!waiting) options.onWaiting?.();
          await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
        }
        locked = true;
      } catch (error) {
        broken = error;
        return err(unavailable(error, 'Could not take the migration lock'));
      }
      try {
        return await migrateWith(client, options);
      } catch (error) {
        broken = error;
        return err(unavailable(error, 'Could not read or record migrations'));
      }
    } finally {
      // The connection goes back to the pool as it came: unlocked, with the pool's statement
      // time-out (also when this migrator gave up waiting for the lock).
      if (broken === undefined) {
        const unlock = locked ? `SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}); ` : '';
        await query(client, `${unlock}RESET statement_timeout`).catch((error: unknown) => {
          broken = error;
        });
      }
      // A connection in an unknown state is closed, not reused (closing also frees the lock).
      checkedOut.release(broken !== undefined);
    }
  };
  return new ResultAsync(run());
}
