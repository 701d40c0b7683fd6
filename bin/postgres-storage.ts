/**
 * The sandbox's storage on Postgres for `paystate demo --database-url`: payments, idempotency keys
 * and credentials, the card vault under the shared key ring, and the simulated acquirer's and
 * issuer's state, all on one pool, so that several instances on the database act as one.
 */
import type * as PostgresAdaptersModule from '../adapters/postgres/index.js';
import { atDatabase } from '../adapters/shared/index.js';
import type { SandboxConfig } from '../adapters/memory/index.js';
import type { Logger } from '../src/ports/logger.js';
import type { SandboxStorage, SharedSandboxSecrets } from '../adapters/sandbox-server/index.js';

/** The Postgres adapters and CLIs (`paystate/postgres`). */
export type PostgresModule = typeof PostgresAdaptersModule;

/** How long the simulated issuer keeps a challenge: far past any challenge lifetime (at most a day). */
const KEEP_CHALLENGES_MS = 2 * 24 * 60 * 60 * 1000;

/** What `openPostgresStorage` needs: the loaded module, the URL, the config to import, the shared secrets. */
export interface PostgresStorageOptions {
  readonly postgres: PostgresModule;
  readonly connectionString: string;
  /** Where it points (`host:port/database`), named when the database cannot be reached. */
  readonly target: string;
  readonly config: SandboxConfig;
  /** Whether the config is the bundled one (its tokens cannot be changed: a hint when importing fails). */
  readonly bundledConfig: boolean;
  readonly secrets: SharedSandboxSecrets;
  readonly logger: Logger;
  /** Migrates the pool (saying so when it waits for another instance's lock). */
  readonly migrate: (
    pool: Parameters<PostgresModule['migrate']>[0],
  ) => ReturnType<PostgresModule['migrate']> | Promise<Awaited<ReturnType<PostgresModule['migrate']>>>;
  /** Called as soon as there is something to close, with what closes it. */
  readonly onClose: (close: () => Promise<void>) => void;
}

/** A failure's message (after `lead`), naming the database at `target` when it could not be reached. */
function reached(target: string, error: { readonly code: string; readonly message: string }, lead = ''): string {
  return error.code === 'unavailable' ? atDatabase(target, `${lead}${error.message}`) : `${lead}${error.message}`;
}

/** Connects, migrates, imports the config, and answers the sandbox's storage; rejects with a message to print. */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<SandboxStorage> {
  const { postgres, logger } = options;
  // The logger hears a close that gives up on a database that went dark.
  const adapters = await postgres.createPostgresAdapters({
    connectionString: options.connectionString,
    logger,
    migrate: false,
    cardVaultKeys: options.secrets.cardVaultKeys,
  });
  options.onClose(() => adapters.close());
  const migrated = await options.migrate(adapters.pool);
  if (migrated.isErr()) throw new Error(reached(options.target, migrated.error));
  const imported = await adapters.credentials.importConfig(options.config);
  if (imported.isErr()) {
    // The bundled config's tokens cannot be changed: its clients need a config of the user's own.
    const bundledHint =
      imported.error.code === 'retired_token' && options.bundledConfig
        ? ' (the bundled config is in use, whose tokens cannot be changed: pass --config with a file of your own, or give the sandbox a database of its own)'
        : '';
    throw new Error(reached(options.target, imported.error, `could not store the sandbox config: `) + bundledHint);
  }
  const simulator = postgres.createPostgresSandboxStores(adapters.pool);
  if (adapters.cardVault === undefined) throw new Error('the Postgres card vault was not made');
  return {
    repository: adapters.repository,
    idempotency: adapters.idempotency,
    credentials: adapters.credentials,
    cardVault: adapters.cardVault,
    simulator,
    housekeep: async (now: number) => {
      const done = await adapters.housekeep(now);
      if (done.isErr()) logger.warn({ code: done.error.code, message: done.error.message }, 'housekeeping failed');
      else if (Object.values(done.value).some((count) => count > 0)) logger.info({ ...done.value }, 'housekeeping');
      const purged = await simulator.purgeChallenges(now - KEEP_CHALLENGES_MS);
      if (purged.isErr())
        logger.warn({ code: purged.error.code, message: purged.error.message }, 'housekeeping failed');
    },
  };
}
