import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type {
  DuePayments,
  OutboxEntry,
  PaymentPage,
  PaymentRepository,
  RepositoryError,
} from '../../src/ports/payment-repository.js';
import type { Logger } from '../../src/ports/logger.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { closeTimeoutMs, poolCloser, type CloseStep } from './bounded-close.js';
import { resolveConnection, type PostgresConnectionOptions, type ResolvedConnection } from './connection.js';
import { paymentFromRow, paymentParams } from './payment-row.js';
import { safeNumber } from './row-codec.js';
import { byDue, pageOf, pageSize, readRows } from './row-pages.js';
import {
  FIND_DUE,
  INSERT,
  LIST_AFTER,
  LIST_FIRST,
  LOAD,
  MARK_DELIVERED,
  DEFER_DELIVERY,
  HOLD_CLAIM,
  HOLD_OUTBOX_LEASE,
  PURGE_DELIVERED,
  READ_OUTBOX,
  RELEASE_OUTBOX_LEASE,
  UPDATE,
} from './payment-statements.js';
import { runStatement, type Statement } from './run-statement.js';
import { createOperationMethods } from './operation-methods.js';

/** How a Postgres repository shares work with other instances; every field has a default. */
export interface PostgresPaymentRepositoryTuning {
  /**
   * How long payments `findDue` returned stay hidden from other instances' `findDue`, in ms
   * (docs/postgres.md#the-sweeper-across-instances-for-update-skip-locked-and-a-lease). Default 30000; 0: no lease.
   */
  readonly claimLeaseMs?: number;
  /**
   * How long the instance that last read the outbox stays its only reader, in ms (renewed by each
   * `readOutbox`; docs/postgres.md#the-outbox-across-instances). Default 30000.
   */
  readonly outboxLeaseMs?: number;
  /** Named prepared statements; default true. Turn off behind a pooler that does not support them. */
  readonly preparedStatements?: boolean;
  /** Identifies this instance's leases; default a random UUID. */
  readonly instanceId?: string;
  /**
   * How long `close()` waits to give up the outbox lease and end a pool it created, in ms; default
   * 5000, `Infinity` waits as long as it takes (docs/postgres.md#closing).
   */
  readonly closeTimeoutMs?: number;
  /** Where `close()` reports what it gave up or what failed (warnings). Default: silent. */
  readonly logger?: Logger;
}

/** Options of `createPostgresPaymentRepository`: a pool or a connection string, and the tuning. */
export type PostgresPaymentRepositoryOptions = PostgresConnectionOptions & PostgresPaymentRepositoryTuning;

/** The Postgres `PaymentRepository`, plus housekeeping. */
export interface PostgresPaymentRepository extends PaymentRepository {
  /** The pool the repository uses. */
  readonly pool: Pool;
  /** The id of this instance's leases. */
  readonly instanceId: string;
  /** Keeps the outbox lease while the engine publishes (see `PaymentRepository.holdOutbox`). */
  readonly holdOutbox: NonNullable<PaymentRepository['holdOutbox']>;
  /** Keeps a `findDue` claim while the engine inquires (see `PaymentRepository.holdClaim`). */
  readonly holdClaim: NonNullable<PaymentRepository['holdClaim']>;
  /** Deletes outbox entries delivered before `before` (epoch ms); returns how many. */
  purgeDelivered(before: number): PortResult<number, RepositoryError>;
  /** Gives up the outbox lease and ends a pool it created, waiting at most `closeTimeoutMs`; never rejects. */
  close(): Promise<void>;
}

/** A lease in whole ms, cut to what an `int` parameter holds; default 30 s. NaN or negative: a `RangeError`. */
const leaseMs = (name: string, value: number | undefined, min: number): number => {
  if (value !== undefined && (Number.isNaN(value) || value < 0)) {
    throw new RangeError(`${name} needs a number of milliseconds of at least ${min} (got ${String(value)})`);
  }
  return Math.min(2_147_483_647, Math.max(min, Math.floor(value ?? 30_000)));
};

/** A hold in whole ms from 1 to what the statements' `int` parameter holds. */
const holdMs = (forMs: number): number =>
  Number.isNaN(forMs) ? 1 : Math.min(2_147_483_647, Math.max(1, Math.ceil(forMs)));

/**
 * A `PaymentRepository` on Postgres (schema: `migrate`): every write one statement, `findDue` and the
 * outbox leased across instances (docs/postgres.md#concurrency).
 */
export function createPostgresPaymentRepository(options: PostgresPaymentRepositoryOptions): PostgresPaymentRepository {
  // Checked before a pool is made for them (`createRepositoryOn` checks them again).
  leaseMs('claimLeaseMs', options.claimLeaseMs, 0);
  leaseMs('outboxLeaseMs', options.outboxLeaseMs, 1);
  closeTimeoutMs(options.closeTimeoutMs);
  return createRepositoryOn(resolveConnection(options), options).repository;
}

/** A repository, and the step of a close that gives up its outbox lease. */
export interface RepositoryOnConnection {
  readonly repository: PostgresPaymentRepository;
  /** Gives up the outbox lease (for `createPostgresAdapters`, whose own close runs it with the pool's end). */
  readonly releaseOutboxLease: CloseStep;
}

const LEASE_LEFT =
  'the outbox lease is kept until it runs out (outboxLeaseMs from the last read, or the hold the engine last took), then another instance takes it, as after a crash';

/** The repository on `connection` (the pool it was given or made); see `createPostgresPaymentRepository`. */
export function createRepositoryOn(
  connection: ResolvedConnection,
  options: PostgresPaymentRepositoryTuning,
): RepositoryOnConnection {
  const { pool } = connection;
  const prepared = options.preparedStatements ?? true;
  const instanceId = options.instanceId ?? randomUUID();
  const claimLeaseMs = leaseMs('claimLeaseMs', options.claimLeaseMs, 0);
  const outboxLeaseMs = leaseMs('outboxLeaseMs', options.outboxLeaseMs, 1);
  const closeWithinMs = closeTimeoutMs(options.closeTimeoutMs);
  const held = (result: Result<QueryResult, RepositoryError>): Result<boolean, RepositoryError> =>
    result.isErr() ? err(result.error) : ok(result.value.rows.length > 0);

  const run = <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    runStatement<R>(pool, statement, values, prepared);

  const eventsParam = (events: readonly DomainEvent[]): string => JSON.stringify(events);

  // Whether a statement that takes the outbox lease was ever sent (or tried): until then this
  // instance holds none, and a close has nothing to give up (nor a database never reached to ask).
  let leaseAsked = false;
  const releaseOutboxLease: CloseStep = {
    name: 'release the outbox lease',
    run: async () => {
      if (!leaseAsked) return null;
      const released = await run(RELEASE_OUTBOX_LEASE, [instanceId]);
      return released.isErr() ? released.error.message : null;
    },
    ifGivenUp: LEASE_LEFT,
  };
  const repository: PostgresPaymentRepository = {
    pool,
    instanceId,

    async insert(record, events) {
      const result = await run(INSERT, [record.id, ...paymentParams(record), eventsParam(events)]);
      if (result.isOk()) return ok(undefined);
      const failure = result.error;
      return err(
        failure.code === 'conflict' ? { ...failure, message: `Payment ${record.id} already exists` } : failure,
      );
    },

    async update(record, events) {
      const result = await run<{ written: number }>(UPDATE, [
        record.id,
        ...paymentParams(record),
        eventsParam(events),
        record.version - 1,
      ]);
      if (result.isErr()) return err(result.error);
      if (result.value.rows[0]?.written !== 1) {
        return err({
          code: 'conflict',
          message: `Payment ${record.id} is not stored at version ${record.version - 1}`,
          retryable: false,
        });
      }
      return ok(undefined);
    },

    async load(id) {
      const result = await run(LOAD, [id]);
      if (result.isErr()) return err(result.error);
      const row = result.value.rows[0];
      return readRows(() => (row === undefined ? null : paymentFromRow(row)));
    },

    async list(query) {
      const limit = pageSize(query.limit);
      const empty: PaymentPage = { items: [], nextCursor: null };
      if (limit === 0) return ok(empty);
      const partner = query.partnerId ?? null;
      const result =
        query.after === undefined
          ? await run(LIST_FIRST, [query.profileId, limit + 1, partner])
          : await run(LIST_AFTER, [query.profileId, limit + 1, query.after, partner]);
      if (result.isErr()) return err(result.error);
      return readRows((): PaymentPage => pageOf(result.value.rows, limit, paymentFromRow));
    },

    async findDue(query) {
      const limit = pageSize(query.limit);
      if (limit === 0) return ok({ expiries: [], inquiries: [], authorizationExpiries: [] });
      const result = await run<QueryResultRow & { kind: 'expiry' | 'inquiry' | 'authorization_expiry' }>(FIND_DUE, [
        new Date(query.now).toISOString(),
        limit,
        instanceId,
        claimLeaseMs,
      ]);
      if (result.isErr()) return err(result.error);
      const rows = result.value.rows;
      return readRows((): DuePayments => {
        const expiries: PaymentRecord[] = [];
        const inquiries: PaymentRecord[] = [];
        const authorizationExpiries: PaymentRecord[] = [];
        const lists = { expiry: expiries, inquiry: inquiries, authorization_expiry: authorizationExpiries };
        for (const row of rows) lists[row.kind].push(paymentFromRow(row));
        expiries.sort(byDue((record: PaymentRecord) => record.expiresAt));
        inquiries.sort(byDue((record: PaymentRecord) => record.nextInquiryAt));
        authorizationExpiries.sort(byDue((record: PaymentRecord) => record.authorizationExpiresAt));
        return { expiries, inquiries, authorizationExpiries };
      });
    },

    ...createOperationMethods({ run, instanceId, claimLeaseMs }),

    async readOutbox(query) {
      const count = pageSize(query.limit);
      if (count === 0) return ok([]);
      leaseAsked = true;
      const result = await run<{ sequence: string; event: DomainEvent; attempts: number }>(READ_OUTBOX, [
        instanceId,
        outboxLeaseMs,
        count,
        new Date(query.now).toISOString(),
      ]);
      if (result.isErr()) return err(result.error);
      const rows = result.value.rows;
      return readRows(() =>
        rows.map((row): OutboxEntry => ({
          sequence: safeNumber(row.sequence, 'sequence'),
          event: row.event,
          attempts: row.attempts,
        })),
      );
    },

    async markDelivered(sequences) {
      if (sequences.length === 0) return ok(undefined);
      const result = await run(MARK_DELIVERED, [sequences.map(String)]);
      return result.isErr() ? err(result.error) : ok(undefined);
    },

    async deferDelivery(deferrals) {
      if (deferrals.length === 0) return ok(undefined);
      // One entry per sequence, the last one given for it (as the memory adapter keeps it).
      const last = [...new Map(deferrals.map((deferral) => [deferral.sequence, deferral])).values()];
      const result = await run(DEFER_DELIVERY, [
        last.map((deferral) => String(deferral.sequence)),
        last.map((deferral) => deferral.attempts),
        last.map((deferral) => new Date(deferral.retryAt).toISOString()),
      ]);
      return result.isErr() ? err(result.error) : ok(undefined);
    },

    async holdOutbox({ forMs }) {
      leaseAsked = true;
      return held(await run(HOLD_OUTBOX_LEASE, [instanceId, holdMs(forMs)]));
    },

    async holdClaim({ paymentId, version, forMs }) {
      // No lease, no claim to keep: any instance may sweep the payment, the versioned update guards.
      if (claimLeaseMs === 0) return ok(true);
      return held(await run(HOLD_CLAIM, [paymentId, version, instanceId, holdMs(forMs)]));
    },

    async purgeDelivered(before) {
      const result = await run(PURGE_DELIVERED, [new Date(before).toISOString()]);
      return result.isErr() ? err(result.error) : ok(result.value.rowCount ?? 0);
    },

    close: poolCloser(
      connection,
      { what: 'Postgres payment repository', withinMs: closeWithinMs, logger: options.logger },
      [releaseOutboxLease],
    ),
  };
  return { repository, releaseOutboxLease };
}
