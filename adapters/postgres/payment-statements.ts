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
 * The same for payment `id` of CTE `source`, which may have waiting events: new events wait as long
 * as the latest of them (`waits_until`), so they stay out of the index of ready events.
 */
export const insertLaterEvents = (source: string, id: string, param: number): string => `
  INSERT INTO paystate_outbox (event_id, payment_id, event_type, event, waits_until)
  SELECT e.value->>'id', ${id}, e.value->>'type', e.value, held.waits_until
  FROM ${source}
  CROSS JOIN LATERAL (
    SELECT max(h.retry_at) AS waits_until FROM paystate_outbox h
    WHERE h.payment_id = ${id} AND h.delivered_at IS NULL
  ) AS held,
  json_array_elements($${param}::json) WITH ORDINALITY AS e(value, ordinal)
  ORDER BY e.ordinal`;

/**
 * The outbox rule for an event `o` at time $4: not deferred past it itself, and no earlier
 * undelivered event of its payment deferred past it.
 */
const DUE_AT_4 = `AND (o.retry_at IS NULL OR o.retry_at <= $4)
    AND NOT EXISTS (
      SELECT 1 FROM paystate_outbox d
      WHERE d.payment_id = o.payment_id AND d.sequence < o.sequence
        AND d.delivered_at IS NULL AND d.retry_at > $4
    )`;

/** `waits_until` of an undelivered event: the running maximum of `retry_at` over its payment's. */
const WAITS_UNTIL = `max(retry_at) OVER (PARTITION BY payment_id ORDER BY sequence)`;

/** Insert: the payment and its events in one statement; a taken id is a unique violation. */
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
 * Update: a compare-and-set on the version and the events in one statement; `written` counts 0 when
 * the version moved on (no event is written). Any lease on the payment ends.
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
), events AS (${insertLaterEvents('written', 'written.id', EVENTS_PARAM)}
)
SELECT count(*)::int AS written FROM written`,
};

export const LOAD: Statement = {
  name: 'paystate_payment_load',
  text: `SELECT ${SELECT_P} FROM paystate_payments p WHERE p.id = $1`,
};

/** A profile's payments, newest first; `$3`, when not null, keeps to one partner's (a filter on the index's rows). */
export const LIST_FIRST: Statement = {
  name: 'paystate_payment_list_first',
  text: `
SELECT ${SELECT_P} FROM paystate_payments p
WHERE p.profile_id = $1
  AND ($3::text IS NULL OR p.partner_id = $3)
ORDER BY p.created_at DESC, p.id DESC
LIMIT $2`,
};

/** The cursor of `LIST_AFTER` is a payment of partner `$4`, when that is not null. */
const CURSOR_PARTNER = '($4::text IS NULL OR c.partner_id = $4)';

/** After a cursor of the same profile (and partner `$4`); an unknown or foreign cursor: an empty page. */
export const LIST_AFTER: Statement = {
  name: 'paystate_payment_list_after',
  text: `
SELECT ${SELECT_P} FROM paystate_payments p
WHERE p.profile_id = $1
  AND ($4::text IS NULL OR p.partner_id = $4)
  AND (p.created_at, p.id) < (
    (SELECT c.created_at FROM paystate_payments c WHERE c.id = $3 AND c.profile_id = $1 AND ${CURSOR_PARTNER}),
    (SELECT c.id FROM paystate_payments c WHERE c.id = $3 AND c.profile_id = $1 AND ${CURSOR_PARTNER})
  )
ORDER BY p.created_at DESC, p.id DESC
LIMIT $2`,
};

/** At most $2 rows of `table` due by `where`, earliest first, leased to no instance but $3, skipping locked ones. */
export const claimable = (table: string, select: string, where: string, due: string): string => `
  SELECT ${select} FROM ${table}
  WHERE ${where} AND ${due} <= $1
    AND (claimed_until IS NULL OR claimed_until <= now() OR claimed_by = $3)
  ORDER BY ${due}, id
  LIMIT $2
  FOR UPDATE SKIP LOCKED`;

/** Leases a claimed row to instance $3 for $4 ms (none when $4 is 0). */
export const CLAIM = `claimed_by = CASE WHEN $4::int > 0 THEN $3 END,
    claimed_until = CASE WHEN $4::int > 0 THEN now() + $4::int * interval '1 millisecond' END`;

const dueOf = (kind: string, where: string, due: string) =>
  claimable('paystate_payments', `id, '${kind}' AS kind`, where, due);

/**
 * Claims the oldest due payments of each kind (expiry, inquiry, expiry of an open manual
 * authorization) and leases them. $1 now (the engine's clock), $2 limit, $3 instance, $4 lease in ms.
 */
export const FIND_DUE: Statement = {
  name: 'paystate_payment_find_due',
  text: `
WITH expiries AS (${dueOf('expiry', "state IN ('awaiting_card_data', 'awaiting_challenge')", 'expires_at')}
), inquiries AS (${dueOf('inquiry', "state = 'authorizing'", 'next_inquiry_at')}
), authorization_expiries AS (${dueOf(
    'authorization_expiry',
    "state = 'succeeded' AND capture_method = 'manual' AND capture_closed_by IS NULL",
    'authorization_expires_at',
  )}
)
UPDATE paystate_payments p
SET ${CLAIM}
FROM (SELECT * FROM expiries UNION ALL SELECT * FROM inquiries UNION ALL SELECT * FROM authorization_expiries) AS due
WHERE p.id = due.id
RETURNING due.kind, ${SELECT_P}`,
};

/**
 * Takes or renews the outbox lease, then, if this instance holds it, reads the oldest undelivered events
 * due at $4 from two short index walks, ready and due waiting ones (docs/postgres.md#the-outbox-across-instances).
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
  WHERE o.delivered_at IS NULL AND o.waits_until IS NULL
    ${DUE_AT_4}
  ORDER BY o.sequence
  LIMIT $3
), due AS (
  SELECT o.sequence, o.event, o.attempts FROM paystate_outbox o
  WHERE o.delivered_at IS NULL AND o.waits_until <= $4
    ${DUE_AT_4}
  ORDER BY o.sequence
  LIMIT $3
)
SELECT sequence, event, attempts FROM (SELECT * FROM ready UNION ALL SELECT * FROM due) AS o
WHERE EXISTS (SELECT 1 FROM lease)
ORDER BY sequence
LIMIT $3`,
};

/**
 * Marks events delivered. When one of them had been deferred, the later events of its payment
 * wait no longer for it: their `waits_until` is computed again without it.
 */
export const MARK_DELIVERED: Statement = {
  name: 'paystate_outbox_mark_delivered',
  text: `
WITH marked AS (
  UPDATE paystate_outbox SET delivered_at = now()
  WHERE sequence = ANY($1::bigint[]) AND delivered_at IS NULL
  RETURNING payment_id, retry_at
), computed AS (
  SELECT sequence, waits_until, ${WAITS_UNTIL} AS recomputed
  FROM paystate_outbox
  WHERE delivered_at IS NULL AND sequence <> ALL($1::bigint[])
    AND payment_id IN (SELECT payment_id FROM marked WHERE retry_at IS NOT NULL)
)
UPDATE paystate_outbox o SET waits_until = c.recomputed
FROM computed c
WHERE o.sequence = c.sequence AND c.waits_until IS DISTINCT FROM c.recomputed`,
};

/**
 * Stores refusals (attempts and `retry_at` of each refused event; one entry per sequence) and
 * computes `waits_until` again for every undelivered event of their payments.
 */
export const DEFER_DELIVERY: Statement = {
  name: 'paystate_outbox_defer',
  text: `
WITH d AS (
  SELECT * FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS d(sequence, attempts, retry_at)
), affected AS (
  SELECT DISTINCT o.payment_id FROM paystate_outbox o JOIN d ON d.sequence = o.sequence
  WHERE o.delivered_at IS NULL
), rows AS (
  SELECT l.sequence, l.payment_id,
         CASE WHEN d.sequence IS NULL THEN l.attempts ELSE d.attempts END AS attempts,
         CASE WHEN d.sequence IS NULL THEN l.retry_at ELSE d.retry_at END AS retry_at
  FROM paystate_outbox l
  JOIN affected a ON a.payment_id = l.payment_id
  LEFT JOIN d ON d.sequence = l.sequence
  WHERE l.delivered_at IS NULL
)
UPDATE paystate_outbox o
SET attempts = r.attempts, retry_at = r.retry_at, waits_until = r.waits_until
FROM (SELECT sequence, attempts, retry_at, ${WAITS_UNTIL} AS waits_until FROM rows) AS r
WHERE o.sequence = r.sequence`,
};

export const PURGE_DELIVERED: Statement = {
  name: 'paystate_outbox_purge',
  text: `DELETE FROM paystate_outbox WHERE delivered_at IS NOT NULL AND delivered_at < $1`,
};

/**
 * Keeps the outbox lease for $2 ms if instance $1 still holds it (even lapsed: only another's read takes
 * it over); one row when it did.
 */
export const HOLD_OUTBOX_LEASE: Statement = {
  name: 'paystate_outbox_hold',
  text: `
UPDATE paystate_outbox_lease
SET held_until = now() + $2::int * interval '1 millisecond'
WHERE holder = $1
RETURNING holder`,
};

/**
 * Keeps instance $3's claim on payment $1 for $4 ms if it is still at version $2 and claimed by it;
 * one row when it did.
 */
export const HOLD_CLAIM: Statement = {
  name: 'paystate_payment_hold_claim',
  text: `
UPDATE paystate_payments
SET claimed_until = now() + $4::int * interval '1 millisecond'
WHERE id = $1 AND version = $2 AND claimed_by = $3
RETURNING id`,
};

export const RELEASE_OUTBOX_LEASE: Statement = {
  name: 'paystate_outbox_release',
  text: `UPDATE paystate_outbox_lease SET holder = NULL, held_until = NULL WHERE holder = $1`,
};
