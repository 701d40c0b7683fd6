import { OPERATION_TYPES, OPERATION_WRITE_COLUMNS, operationSelectList } from './operation-row.js';
import { PAYMENT_WRITE_COLUMNS } from './payment-row.js';
import { CLAIM, claimable, insertLaterEvents } from './payment-statements.js';
import type { Statement } from './run-statement.js';

/*
 * The SQL of money operations: each write one statement. Parameters: $1 operation id, its columns,
 * whether the payment changes, its columns (or nulls), its version, the events, the operation's version.
 */

const OP_COLUMNS = OPERATION_WRITE_COLUMNS.join(', ');
const PAY_COLUMNS = PAYMENT_WRITE_COLUMNS.join(', ');
const OP_FIRST = 2;
const HAS_PAYMENT = OP_FIRST + OPERATION_WRITE_COLUMNS.length;
const PAY_FIRST = HAS_PAYMENT + 1;
const PAYMENT_VERSION = PAY_FIRST + PAYMENT_WRITE_COLUMNS.length;
const EVENTS = PAYMENT_VERSION + 1;
const OPERATION_VERSION = EVENTS + 1;
/** The operation's payment id (its `payment_id` column). */
const PAYMENT_ID = `$${OP_FIRST + OPERATION_WRITE_COLUMNS.indexOf('payment_id')}::text`;

const opValues = (cast: boolean): string =>
  OPERATION_WRITE_COLUMNS.map(
    (column, index) => `$${OP_FIRST + index}${cast ? `::${OPERATION_TYPES[index]}` : ''}`,
  ).join(', ');

/** The payment's new version when `$HAS_PAYMENT`, once `op` wrote its row; any lease on it ends. */
const PAYMENT_WRITE = `
  UPDATE paystate_payments
  SET (${PAY_COLUMNS}, claimed_by, claimed_until) =
      ROW(${PAYMENT_WRITE_COLUMNS.map((_, index) => `$${PAY_FIRST + index}`).join(', ')}, NULL, NULL)
  WHERE $${HAS_PAYMENT}::boolean AND id = ${PAYMENT_ID} AND version = $${PAYMENT_VERSION}::int
    AND EXISTS (SELECT 1 FROM op)
  RETURNING id`;

const EVENTS_WRITE = insertLaterEvents('op', 'op.payment_id', EVENTS);

/**
 * Insert: locks the payment (at the expected version when it changes), then writes operation, payment
 * and events; else nothing and `written` is 0. A taken id or a broken money CHECK fails the statement.
 */
export const INSERT_OPERATION: Statement = {
  name: 'paystate_operation_insert',
  text: `
WITH gate AS (
  SELECT p.id FROM paystate_payments p
  WHERE p.id = ${PAYMENT_ID} AND (NOT $${HAS_PAYMENT}::boolean OR p.version = $${PAYMENT_VERSION}::int)
  FOR UPDATE
), op AS (
  INSERT INTO paystate_operations (id, ${OP_COLUMNS})
  SELECT $1::text, ${opValues(true)} FROM gate
  RETURNING payment_id
), written AS (${PAYMENT_WRITE}
), events AS (${EVENTS_WRITE}
)
SELECT count(*)::int AS written FROM op`,
};

/**
 * Update: locks the operation, then its payment, each at its expected version, then writes all three;
 * otherwise nothing and `written` is 0. Any lease on the operation ends.
 */
export const UPDATE_OPERATION: Statement = {
  name: 'paystate_operation_update',
  text: `
WITH op_gate AS (
  SELECT o.payment_id FROM paystate_operations o
  WHERE o.id = $1 AND o.version = $${OPERATION_VERSION}::int AND o.payment_id = ${PAYMENT_ID}
  FOR UPDATE
), gate AS (
  SELECT p.id FROM paystate_payments p JOIN op_gate g ON g.payment_id = p.id
  WHERE NOT $${HAS_PAYMENT}::boolean OR p.version = $${PAYMENT_VERSION}::int
  FOR UPDATE OF p
), op AS (
  UPDATE paystate_operations
  SET (${OP_COLUMNS}, claimed_by, claimed_until) = ROW(${opValues(false)}, NULL, NULL)
  WHERE id = $1 AND version = $${OPERATION_VERSION}::int AND EXISTS (SELECT 1 FROM gate)
  RETURNING payment_id
), written AS (${PAYMENT_WRITE}
), events AS (${EVENTS_WRITE}
)
SELECT count(*)::int AS written FROM op`,
};

const SELECT_O = operationSelectList('o');

export const LOAD_OPERATION: Statement = {
  name: 'paystate_operation_load',
  text: `SELECT ${SELECT_O} FROM paystate_operations o WHERE o.id = $1`,
};

/** A payment's operations ($1), oldest first, of kind $3 when not null, at most $2. */
export const LIST_OPERATIONS_FIRST: Statement = {
  name: 'paystate_operation_list_first',
  text: `
SELECT ${SELECT_O} FROM paystate_operations o
WHERE o.payment_id = $1 AND ($3::text IS NULL OR o.kind = $3)
ORDER BY o.created_at, o.id
LIMIT $2`,
};

const CURSOR = `c.id = $4 AND c.payment_id = $1 AND ($3::text IS NULL OR c.kind = $3)`;

/** After cursor $4, an operation of the same payment (and kind): an unknown one finds no row. */
export const LIST_OPERATIONS_AFTER: Statement = {
  name: 'paystate_operation_list_after',
  text: `
SELECT ${SELECT_O} FROM paystate_operations o
WHERE o.payment_id = $1 AND ($3::text IS NULL OR o.kind = $3)
  AND (o.created_at, o.id) > (
    (SELECT c.created_at FROM paystate_operations c WHERE ${CURSOR}),
    (SELECT c.id FROM paystate_operations c WHERE ${CURSOR})
  )
ORDER BY o.created_at, o.id
LIMIT $2`,
};

/** Claims up to $2 `processing` operations due for an inquiry at $1 and leases them to instance $3 for $4 ms. */
export const FIND_DUE_OPERATIONS: Statement = {
  name: 'paystate_operation_find_due',
  text: `
WITH due AS (${claimable('paystate_operations', 'id', "state = 'processing'", 'next_inquiry_at')}
)
UPDATE paystate_operations o
SET ${CLAIM}
FROM due
WHERE o.id = due.id
RETURNING ${SELECT_O}`,
};
