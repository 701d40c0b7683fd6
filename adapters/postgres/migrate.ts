import { createHash } from 'node:crypto';
import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { Pool, PoolClient } from 'pg';
import type { PortFailure } from '../../src/ports/port-result.js';
import { classifyPostgresError } from './classify-error.js';
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
  await client.query(`
    CREATE TABLE IF NOT EXISTS paystate_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const { rows } = await client.query<AppliedRow>('SELECT version, name, checksum FROM paystate_migrations');
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
      await client.query('BEGIN');
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query(migration.sql);
      await client.query('INSERT INTO paystate_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksumOf(migration),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
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
 * Brings the database schema up to date. Safe to run from several instances at once: a
 * session advisory lock lets one migrator work at a time, and the others then find nothing
 * left to do. Each migration runs in its own transaction together with its row in
 * `paystate_migrations`, so a failure leaves the schema at the previous version.
 */
export function migrate(pool: Pool, options: MigrateOptions = {}): ResultAsync<MigrationReport, MigrationError> {
  const run = async (): Promise<Result<MigrationReport, MigrationError>> => {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return err(unavailable(error, 'Could not connect to migrate'));
    }
    let broken: unknown = undefined;
    try {
      try {
        // The pool's statement time-out must not cut the wait for another migrator short.
        await client.query('SET statement_timeout = 0');
        const deadline = Date.now() + (options.lockWaitMs ?? 10 * 60 * 1000);
        for (let waiting = false; ; waiting = true) {
          const { rows } = await client.query<{ locked: boolean }>(
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
      } catch (error) {
        broken = error;
        return err(unavailable(error, 'Could not take the migration lock'));
      }
      try {
        return await migrateWith(client, options);
      } catch (error) {
        broken = error;
        return err(unavailable(error, 'Could not read or record migrations'));
      } finally {
        if (broken === undefined) {
          await client
            .query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}); RESET statement_timeout`)
            .catch((error: unknown) => {
              broken = error;
            });
        }
      }
    } finally {
      // A connection in an unknown state is closed, not reused (closing also frees the lock).
      client.release(broken === undefined ? undefined : true);
    }
  };
  return new ResultAsync(run());
}
