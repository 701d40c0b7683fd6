import { err, ok, type Result } from 'neverthrow';
import type { Pool } from 'pg';
import type { Clock } from '../../src/ports/clock.js';
import type { RepositoryError } from '../../src/ports/payment-repository.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { createPostgresCardVault, type PostgresCardVault } from './card-vault.js';
import { checkKeyRing, type CardVaultKey } from './card-vault-cipher.js';
import { createPostgresCredentialStore, type PostgresCredentialStore } from './credential-store.js';
import { resolveConnection, type PostgresConnectionOptions } from './connection.js';
import { createPostgresIdempotencyStore, type PostgresIdempotencyStore } from './idempotency-store.js';
import { migrate, type MigrationError, type MigrationReport } from './migrate.js';
import { closeTimeoutMs, poolCloser } from './bounded-close.js';
import {
  createRepositoryOn,
  type PostgresPaymentRepository,
  type PostgresPaymentRepositoryTuning,
} from './payment-repository.js';

/** Options of `createPostgresAdapters`: the connection, the repository's tuning, and whether to migrate first. */
export type PostgresAdaptersOptions = PostgresConnectionOptions &
  PostgresPaymentRepositoryTuning & {
    /** Bring the schema up to date first (`migrate`). Default true. */
    readonly migrate?: boolean;
    /** Judges when API tokens expire (the credential store's `clock`): pass the engine's. Default the system time. */
    readonly clock?: Clock;
    /** The card vault's key ring: when given, `cardVault` is made on the same pool, judging deadlines by `clock`. */
    readonly cardVaultKeys?: readonly CardVaultKey[];
  };

/** How long `housekeep` keeps delivered events by default: 7 days. */
export const DEFAULT_KEEP_DELIVERED_EVENTS_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of `housekeep`. */
export interface HousekeepingOptions {
  /** Delivered events younger than this stay (for audit and replays), in ms. Default 7 days. */
  readonly keepDeliveredEventsMs?: number;
}

/** What one `housekeep` call deleted. */
export interface HousekeepingReport {
  /** Delivered outbox events deleted. */
  readonly deliveredEvents: number;
  /** Expired idempotency keys deleted. */
  readonly idempotencyKeys: number;
  /** Cards past their deadline deleted from the card vault (0 without one). */
  readonly cardVaultEntries: number;
}

/** Every Postgres adapter on one pool. */
export interface PostgresAdapters {
  /** The one pool every adapter here uses (closed by `close` when created from a connection string). */
  readonly pool: Pool;
  /** The `PaymentRepository`. */
  readonly repository: PostgresPaymentRepository;
  /** The `IdempotencyStore`. */
  readonly idempotency: PostgresIdempotencyStore;
  /** The `CredentialStore`. */
  readonly credentials: PostgresCredentialStore;
  /** The `CardVault`, when `cardVaultKeys` were given. */
  readonly cardVault?: PostgresCardVault;
  /** What `migrate` did, when it ran. */
  readonly migration: MigrationReport | null;
  /**
   * Deletes delivered events older than `keepDeliveredEventsMs`, expired idempotency keys and cards
   * (docs/postgres.md#housekeeping). A RangeError for a `now` or keep that is not finite, or negative.
   */
  housekeep(now: number, options?: HousekeepingOptions): PortResult<HousekeepingReport, RepositoryError>;
  /** Releases the outbox lease and ends a pool created here, waiting at most `closeTimeoutMs` in all; never rejects. */
  close(): Promise<void>;
}

/**
 * The repository, idempotency and credential stores (and card vault) on one pool, after `migrate`
 * unless told not to. Rejects with `PostgresMigrationFailed`, or a RangeError for bad options.
 */
export async function createPostgresAdapters(options: PostgresAdaptersOptions): Promise<PostgresAdapters> {
  const closeWithinMs = closeTimeoutMs(options.closeTimeoutMs);
  if (options.cardVaultKeys !== undefined) checkKeyRing(options.cardVaultKeys);
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
  // On the pool as given: its own `close()` releases the lease only, and this one's ends the pool too.
  const { repository, releaseOutboxLease } = createRepositoryOn(resolveConnection({ pool }), {
    ...shared,
    ...(options.claimLeaseMs === undefined ? {} : { claimLeaseMs: options.claimLeaseMs }),
    ...(options.outboxLeaseMs === undefined ? {} : { outboxLeaseMs: options.outboxLeaseMs }),
    ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
    closeTimeoutMs: closeWithinMs,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const idempotency = createPostgresIdempotencyStore(shared);
  const clock = options.clock ?? { now: () => Date.now() };
  const cardVault =
    options.cardVaultKeys === undefined
      ? undefined
      : createPostgresCardVault({ ...shared, keys: options.cardVaultKeys, clock });
  return {
    pool,
    repository,
    idempotency,
    credentials: createPostgresCredentialStore({
      ...shared,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    }),
    ...(cardVault !== undefined && { cardVault }),
    migration,
    housekeep(now, housekeeping = {}) {
      const keep = housekeeping.keepDeliveredEventsMs ?? DEFAULT_KEEP_DELIVERED_EVENTS_MS;
      if (!Number.isFinite(now) || !Number.isFinite(keep) || keep < 0) {
        throw new RangeError('housekeep needs a finite now and a finite, non-negative keepDeliveredEventsMs');
      }
      const run = async (): Promise<Result<HousekeepingReport, RepositoryError>> => {
        const events = await repository.purgeDelivered(now - keep);
        if (events.isErr()) return err(events.error);
        const keys = await idempotency.purgeExpired(now);
        if (keys.isErr()) return err(keys.error);
        const cards = cardVault === undefined ? ok(0) : await cardVault.purgeExpired(now);
        if (cards.isErr()) return err(cards.error);
        return ok({ deliveredEvents: events.value, idempotencyKeys: keys.value, cardVaultEntries: cards.value });
      };
      return run();
    },
    close: poolCloser(connection, { what: 'Postgres adapters', withinMs: closeWithinMs, logger: options.logger }, [
      releaseOutboxLease,
    ]),
  };
}

/** Thrown by `createPostgresAdapters` when the schema could not be migrated. */
export class PostgresMigrationFailed extends Error {
  override readonly name = 'PostgresMigrationFailed';
  constructor(readonly failure: MigrationError) {
    super(failure.message);
  }
}
