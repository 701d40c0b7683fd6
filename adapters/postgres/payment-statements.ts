import { PAYMENT_WRITE_COLUMNS, paymentSelectList } from './payment-row.js';
import type { Statement } from './run-statement.js';

/*
 * The SQL of the payment repository. Every write is a single statement: one transaction and
 * one commit each, atomic also when the connection drops half-way.
 */

const COLUMNS = PAYMENT_WRITE_COLUMNS.join(', ');
const SELECT_P = paymentSelectList('p');
const EVENTS_PARAM = PAYMENT_WRITE_COLUMNS.length + 2;

/**
 * Outbox rows for a JSON array of events, in array order, for the payment a CTE named `written`
 * returns. `json`, not `jsonb`: each event is stored as written, keys in the engine's order.
 */
const INSERT_EVENTS = `
  INSERT INTO paystate_outbox (event_id, payment_id, event_type, event)
  SELECT e.value->>'id', written.id, e.value->>'type', e.value
  FROM written, json_array_elements($${EVENTS_PARAM}::json) WITH ORDINALITY AS e(value, ordinal)
  ORDER BY e.ordinal`;

/**
 * The same for a payment that may have deferred events: new events wait as long as the latest of
 * them (`retry_at`), so that they stay out of the index of ready events the outbox read walks.
 * Looking that up costs a probe of the payment's events (`paystate_outbox_by_payment`).
 */
const INSERT_LATER_EVENTS = `
  INSERT INTO paystate_outbox (event_id, payment_id, event_type, event, retry_at)
  SELECT e.value->>'id', written.id, e.value->>'type', e.value, held.retry_at
  FROM written
  CROSS JOIN LATERAL (
    SELECT max(h.retry_at) AS retry_at FROM paystate_outbox h
    WHERE h.payment_id = written.id AND h.delivered_at IS NULL AND h.retry_at IS NOT NULL
  ) AS held,
  json_array_elements($${EVENTS_PARAM}::json) WITH ORDINALITY AS e(value, ordinal)
  ORDER BY e.ordinal`;

/**
 * Insert: the payment and its events in one statement, hence one transaction and one commit.
 * A taken id raises a unique violation, and nothing is written.
 */
export const INSERT: Statement = {
  name: 'paystate_payment_insert',
  text: `
WITH written AS (
  INSERT INTO paystate_payments (id, ${COLUMNS})
  VALUES ($1, ${PAYMENT_WRITE_COLUMNS.map((_, index) => `$${index + 2}`).join(', ')})
  RETURNING id
)
${INSERT_EVENTS}`,
};

/**
 * Update: a compare-and-set on the version, and the events, in one statement (one
 * transaction). When the stored version is not the expected one no row is updated, so no
 * event is written either, and `written` counts 0. Any lease on the payment ends.
 */
export const UPDATE: Statement = {
  name: 'paystate_payment_update',
  text: `
WITH written AS (
  UPDATE paystate_payments
  SET (${COLUMNS}, claimed_by, claimed_until) =
      ROW(${PAYMENT_WRITE_COLUMNS.map((_, index) => `$${index + 2}`).join(', ')}, NULL, NULL)
  WHERE id = $1 AND version = $${EVENTS_PARAM + 1}
  RETURNING id
), events AS (${INSERT_LATER_EVENTS}
)
SELECT count(*)::int AS written FROM written`,
};

export const LOAD: Statement = {
  name: 'paystate_payment_load',
  text: `SELECT ${SELECT_P} FROM paystate_payments p WHERE p.id = $1`,
};

export const LIST_FIRST: Statement = {
  name: 'paystate_payment_list_first',
  text: `
SELECT ${SELECT_P} FROM paystate_payments p
WHERE p.profile_id = $1
ORDER BY p.created_at DESC, p.id DESC
LIMIT $2`,
};

/** After a cursor of the same profile; an unknown or foreign cursor finds no row, hence an empty page. */
export const LIST_AFTER: Statement = {
  name: 'paystate_payment_list_after',
  text: `
SELECT ${SELECT_P} FROM paystate_payments p
WHERE p.profile_id = $1
  AND (p.created_at, p.id) < (
    (SELECT c.created_at FROM paystate_payments c WHERE c.id = $3 AND c.profile_id = $1),
    (SELECT c.id FROM paystate_payments c WHERE c.id = $3 AND c.profile_id = $1)
  )
ORDER BY p.created_at DESC, p.id DESC
LIMIT $2`,
};

/**
 * Claims due payments: the oldest due of each kind that no other instance holds a lease on,
 * skipping rows another transaction has locked, and leases them to this instance. Parameters:
 * $1 now (the engine's clock), $2 limit, $3 instance, $4 lease in ms.
 */
export const FIND_DUE: Statement = {
  name: 'paystate_payment_find_due',
  text: `
WITH expiries AS (
  SELECT id, 'expiry' AS kind FROM paystate_payments
  WHERE state IN ('awaiting_card_data', 'awaiting_challenge') AND expires_at <= $1
    AND (claimed_until IS NULL OR claimed_until <= now() OR claimed_by = $3)
  ORDER BY expires_at, id
  LIMIT $2
  FOR UPDATE SKIP LOCKED
), inquiries AS (
  SELECT id, 'inquiry' AS kind FROM paystate_payments
  WHERE state = 'authorizing' AND next_inquiry_at <= $1
    AND (claimed_until IS NULL OR claimed_until <= now() OR claimed_by = $3)
  ORDER BY next_inquiry_at, id
  LIMIT $2
  FOR UPDATE SKIP LOCKED
)
UPDATE paystate_payments p
SET claimed_by = CASE WHEN $4::int > 0 THEN $3 END,
    claimed_until = CASE WHEN $4::int > 0 THEN now() + $4::int * interval '1 millisecond' END
FROM (SELECT * FROM expiries UNION ALL SELECT * FROM inquiries) AS due
WHERE p.id = due.id
RETURNING due.kind, ${SELECT_P}`,
};

/**
 * Takes or renews the outbox lease, then, if this instance holds it, reads the oldest undelivered
 * events due at $4: not deferred past it, and with no earlier event of their payment that is.
 *
 * Deferred events, and the later events of their payment, carry a `retry_at` (see
 * `DEFER_DELIVERY` and `INSERT_LATER_EVENTS`), so the read takes the oldest from two short lists
 * instead of walking past every held-back event: the ready events (`retry_at` null, index
 * `paystate_outbox_ready` in sequence order) and the deferred ones that are due (index
 * `paystate_outbox_deferred_due` by `retry_at`). The order check (NOT EXISTS, through the
 * payment's events in `paystate_outbox_by_payment`) keeps the rule whatever the `retry_at` of an
 * event says.
 */
export const READ_OUTBOX: Statement = {
  name: 'paystate_outbox_read',
  text: `
WITH lease AS (
  UPDATE paystate_outbox_lease
  SET holder = $1, held_until = now() + $2::int * interval '1 millisecond'
  WHERE holder = $1 OR holder IS NULL OR held_until IS NULL OR held_until <= now()
  RETURNING holder
), ready AS (
  SELECT o.sequence, o.event, o.attempts FROM paystate_outbox o
  WHERE o.delivered_at IS NULL AND o.retry_at IS NULL
    AND NOT EXISTS (
      SELECT 1 FROM paystate_outbox d
      WHERE d.payment_id = o.payment_id AND d.sequence < o.sequence
        AND d.delivered_at IS NULL AND d.retry_at > $4
    )
  ORDER BY o.sequence
  LIMIT $3
), due AS (
  SELECT o.sequence, o.event, o.attempts FROM paystate_outbox o
  WHERE o.delivered_at IS NULL AND o.retry_at <= $4
    AND NOT EXISTS (
      SELECT 1 FROM paystate_outbox d
      WHERE d.payment_id = o.payment_id AND d.sequence < o.sequence
        AND d.delivered_at IS NULL AND d.retry_at > $4
    )
  ORDER BY o.sequence
  LIMIT $3
)
SELECT sequence, event, attempts FROM (SELECT * FROM ready UNION ALL SELECT * FROM due) AS o
WHERE EXISTS (SELECT 1 FROM lease)
ORDER BY sequence
LIMIT $3`,
};

export const MARK_DELIVERED: Statement = {
  name: 'paystate_outbox_mark_delivered',
  text: `UPDATE paystate_outbox SET delivered_at = now() WHERE sequence = ANY($1::bigint[]) AND delivered_at IS NULL`,
};

/**
 * Stores refusals: each refused event's attempts and `retry_at`, and the same `retry_at` (or a
 * later one they have) on every later undelivered event of its payment, which waits as long.
 */
export const DEFER_DELIVERY: Statement = {
  name: 'paystate_outbox_defer',
  text: `
WITH refused AS (
  UPDATE paystate_outbox o SET attempts = d.attempts, retry_at = d.retry_at
  FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS d(sequence, attempts, retry_at)
  WHERE o.sequence = d.sequence AND o.delivered_at IS NULL
  RETURNING o.payment_id, o.sequence, o.retry_at
), behind AS (
  SELECT l.sequence, max(r.retry_at) AS retry_at
  FROM refused r JOIN paystate_outbox l
    ON l.payment_id = r.payment_id AND l.sequence > r.sequence AND l.delivered_at IS NULL
  WHERE l.sequence <> ALL($1::bigint[])
  GROUP BY l.sequence
)
UPDATE paystate_outbox l SET retry_at = GREATEST(l.retry_at, behind.retry_at)
FROM behind
WHERE l.sequence = behind.sequence`,
};

export const PURGE_DELIVERED: Statement = {
  name: 'paystate_outbox_purge',
  text: `DELETE FROM paystate_outbox WHERE delivered_at IS NOT NULL AND delivered_at < $1`,
};

export const RELEASE_OUTBOX_LEASE: Statement = {
  name: 'paystate_outbox_release',
  text: `UPDATE paystate_outbox_lease SET holder = NULL, held_until = NULL WHERE holder = $1`,
};
