import { err, ok } from 'neverthrow';
import type pg from 'pg';
import { createSandboxAcquirer } from '../../../adapters/sandbox/index.js';
import type { Acquirer, AuthorizationOutcome, InquiryOutcome } from '../../../src/ports/acquirer.js';
import { moneyOperationsOf } from '../../support/money-operations.js';

/** The test table every process's acquirer records its authorizations in. */
export const ACQUIRER_CALLS_TABLE = `
CREATE TABLE IF NOT EXISTS acquirer_calls (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payment_id text NOT NULL,
  caller text NOT NULL,
  decided jsonb NOT NULL,
  called_at timestamptz NOT NULL DEFAULT now()
)`;

export interface RecordingAcquirerOptions {
  readonly pool: pg.Pool;
  /** Who calls (a worker name), kept with each call. */
  readonly caller: string;
  /**
   * Called after the call is recorded, before answering (`after_record`), or before anything
   * is recorded (`before_record`); a crash test signals its parent here and never returns.
   */
  readonly pause?: (stage: 'before_record' | 'after_record', paymentId: string) => Promise<void>;
}

/**
 * The sandbox acquirer's decisions, with every `authorize` call recorded in `acquirer_calls`,
 * a table all processes share: tests count authorizations across processes, and `inquire`
 * (from any process) reports what the acquirer decided for the payment, or `not_found`.
 */
export function createRecordingAcquirer(options: RecordingAcquirerOptions): Acquirer {
  const sandbox = createSandboxAcquirer();
  return {
    ...moneyOperationsOf(sandbox),
    async authorize(request) {
      await options.pause?.('before_record', request.paymentId);
      const answer = await sandbox.authorize(request);
      if (answer.isErr()) return err(answer.error);
      // What the acquirer decided (an `unknown` answer hides an approval the inquiry reveals).
      const decided = await sandbox.inquire({ paymentId: request.paymentId });
      await options.pool.query('INSERT INTO acquirer_calls (payment_id, caller, decided) VALUES ($1, $2, $3)', [
        request.paymentId,
        options.caller,
        JSON.stringify(decided.isOk() ? decided.value : answer.value),
      ]);
      await options.pause?.('after_record', request.paymentId);
      return ok<AuthorizationOutcome>(answer.value);
    },
    async inquire({ paymentId }) {
      const { rows } = await options.pool.query<{ decided: InquiryOutcome }>(
        'SELECT decided FROM acquirer_calls WHERE payment_id = $1 ORDER BY id LIMIT 1',
        [paymentId],
      );
      return ok<InquiryOutcome>(rows[0]?.decided ?? { kind: 'not_found' });
    },
  };
}

/** How many times `authorize` was called per payment, across every process. */
export async function authorizeCalls(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ payment_id: string; calls: number }>(
    'SELECT payment_id, count(*)::int AS calls FROM acquirer_calls GROUP BY payment_id',
  );
  return new Map(rows.map((row) => [row.payment_id, row.calls]));
}
