import { err, ok } from 'neverthrow';
import type { Pool } from 'pg';
import type { SandboxOperation, SandboxOperationStore } from '../sandbox/index.js';
import { asUnavailable, classifyStatementFailure } from './classify-error.js';
import { checkOut, type CheckedOutClient } from './connection.js';
import { runStatement, statementQuery, type Statement } from './run-statement.js';

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
 * The simulated acquirer's operations on Postgres (migration 16). `keep` runs one transaction that
 * holds a lock per payment (`pg_advisory_xact_lock`): it answers the operation kept under the id, or
 * decides on the payment's history and keeps the decision, so two instances never decide on the
 * same history. `find` is one statement.
 */
export function createPostgresSandboxOperationStore(pool: Pool, prepared: boolean): SandboxOperationStore {
  const query = (connection: CheckedOutClient, statement: Statement, values: readonly unknown[]) =>
    connection.client.query<Row>(statementQuery(statement, values, prepared));

  return {
    async keep(operationId, paymentId, decide) {
      let connection: CheckedOutClient;
      try {
        connection = await checkOut(pool);
      } catch (error) {
        return err(asUnavailable(classifyStatementFailure(error, 'connect')));
      }
      let failed = false;
      try {
        await connection.client.query('BEGIN');
        await query(connection, LOCK_PAYMENT, [paymentId]);
        const kept = (await query(connection, FIND, [operationId])).rows[0];
        if (kept !== undefined) {
          await connection.client.query('COMMIT');
          return ok({ record: kept.record, created: false });
        }
        const history = (await query(connection, HISTORY, [paymentId])).rows.map((row) => row.record);
        const record = decide(history);
        await query(connection, INSERT, [operationId, paymentId, JSON.stringify(record)]);
        await connection.client.query('COMMIT');
        return ok({ record, created: true });
      } catch (error) {
        failed = true;
        await connection.client.query('ROLLBACK').catch(() => undefined);
        return err(asUnavailable(classifyStatementFailure(error, 'query')));
      } finally {
        connection.release(failed);
      }
    },

    async find(operationId) {
      const found = await runStatement<Row>(pool, FIND, [operationId], prepared);
      return found.isErr() ? err(asUnavailable(found.error)) : ok(found.value.rows[0]?.record ?? null);
    },
  };
}
