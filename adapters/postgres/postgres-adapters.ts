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
import { silentLogger } from '../../src/ports/logger.js';
import { closeTimeoutMs, closeWithin, endPoolStep } from './bounded-close.js';
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
    /**
     * Judges when API tokens expire (the credential store's `clock`): pass the engine's. Default
     * the system time.
     */
    readonly clock?: Clock;
    /**
     * The card vault's key ring (`createPostgresCardVault`): when given, `cardVault` is made on the
     * same pool, judging deadlines by `clock`. Default none.
     */
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
   * Deletes what nothing needs any more: outbox events delivered more than
   * `keepDeliveredEventsMs` before `now` (epoch ms), idempotency keys past their 24 hours, and
   * cards past their deadline.
   * Neither goes away by itself; run this now and then (hourly, say) from one instance or
   * several (it is safe to run concurrently). The sandbox runs it every minute.
   *
   * @throws RangeError when `now` or `keepDeliveredEventsMs` is not finite, or the latter negative.
   */
  housekeep(now: number, options?: HousekeepingOptions): PortResult<HousekeepingReport, RepositoryError>;
  /**
   * Releases the outbox lease and ends the pool if it was created here, waiting for the database
   * at most `closeTimeoutMs` (default 5 s) in all: then it logs what it gave up (to `logger`) and
   * resolves, and the connections of its own pool still waiting for the server are closed. Never
   * rejects. Later calls give the same promise.
   */
  close(): Promise<void>;
}

/**
 * The payment repository, idempotency store and credential store (and the card vault, with
 * `cardVaultKeys`) on one pool (for a host such as the sandbox's `--database-url`), after
 * migrating the schema unless told not to.
 * Rejects with the `MigrationError` message when migrating fails, and with a `RangeError` for a
 * bad `cardVaultKeys` or `closeTimeoutMs` before it connects.
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
  let closing: Promise<void> | undefined;
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
    close: () => {
      const steps = connection.owned ? [releaseOutboxLease, endPoolStep(connection)] : [releaseOutboxLease];
      closing ??= closeWithin(steps, {
        what: 'Postgres adapters',
        withinMs: closeWithinMs,
        logger: options.logger ?? silentLogger,
        onGiveUp: connection.cut,
      });
      return closing;
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
