import { ok, type Result } from 'neverthrow';
import type { Pool } from 'pg';
import type { KeptOperation, SandboxOperation, SandboxOperationStore } from '../sandbox/index.js';
import { inTransaction, runner, type Statement } from './run-statement.js';

/** The first key of the per-payment transaction lock ('SAND'); the second is the payment id's hash. */
const LOCK_CLASS = 0x53414e44;

const LOCK_PAYMENT: Statement = {
  name: 'paystate_sandbox_operation_lock',
  text: `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, hashtext($1))`,
};
const FIND: Statement = {
  name: 'paystate_sandbox_operation_find',
  text: 'SELECT record FROM paystate_sandbox_operations WHERE operation_id = $1',
};
const HISTORY: Statement = {
  name: 'paystate_sandbox_operation_history',
  text: 'SELECT record FROM paystate_sandbox_operations WHERE payment_id = $1 ORDER BY sequence',
};
const INSERT: Statement = {
  name: 'paystate_sandbox_operation_insert',
  text: 'INSERT INTO paystate_sandbox_operations (operation_id, payment_id, record) VALUES ($1, $2, $3)',
};

type Row = { readonly record: SandboxOperation };

/**
 * The simulated acquirer's operations on Postgres (migration 16): `keep` decides under a per-payment
 * transaction lock, so two instances never decide on the same history.
 */
export function createPostgresSandboxOperationStore(pool: Pool, prepared: boolean): SandboxOperationStore {
  return {
    keep: (operationId, paymentId, decide) =>
      inTransaction(pool, prepared, async (query): Promise<Result<KeptOperation, never>> => {
        await query(LOCK_PAYMENT, [paymentId]);
        const kept = (await query<Row>(FIND, [operationId])).rows[0];
        if (kept !== undefined) return ok({ record: kept.record, created: false });
        const record = decide((await query<Row>(HISTORY, [paymentId])).rows.map((row) => row.record));
        await query(INSERT, [operationId, paymentId, JSON.stringify(record)]);
        return ok({ record, created: true });
      }),

    async find(operationId) {
      return (await runner(pool, prepared)<Row>(FIND, [operationId])).map((found) => found.rows[0]?.record ?? null);
    },
  };
}
