import type { PortFailure } from '../../src/ports/port-result.js';

/** What a Postgres failure means to a port caller: a lost race (`conflict`) or a store that did not do the work. */
export type PostgresFailure = PortFailure<'conflict' | 'unavailable'>;

/** What `pg-pool` answers when it was ended (`pool.end()`): nothing more is sent through it. */
const POOL_ENDED = 'Cannot use a pool after calling end on the pool';

/** The prefix of the CHECK constraints that restate the money invariants on a payment row. */
const MONEY_CHECK = 'paystate_payments_money_';

/** Node socket errors that mean the connection could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Node's codes for a server certificate that TLS did not accept (`pg` takes `sslmode=require` for
 * `verify-full`, so a managed server whose CA the host lacks ends here).
 */
const TLS_CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Node errors that only a connection attempt raises (the connect call itself, or the host name
 * lookup before it): no connection was made, so no statement was written to one.
 */
const NOT_SENT_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Messages of errors `pg` and `pg-pool` raise before a statement is handed to a connection (connect
 * time-out, pool ended, client closed); not `ECONNRESET` and the like, which also come after.
 */
const NOT_SENT_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  POOL_ENDED,
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** Messages of errors the `pg` driver raises itself (no SQLSTATE) when a connection is gone or cannot be had. */
const DRIVER_CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection timeout',
  'Query read timeout',
];

/** SQLSTATEs after which the same statement may well succeed. */
const RETRYABLE_SQLSTATES: Readonly<Record<string, string>> = {
  '40001': 'serialization failure',
  '40P01': 'deadlock detected',
  '55P03': 'lock not available',
  '57014': 'statement cancelled (time-out)',
  '57P01': 'server shutting down (admin shutdown)',
  '57P02': 'server crashed (crash shutdown)',
  '57P03': 'server cannot accept connections yet',
  '57P05': 'idle session time-out (connection closed)',
  '25P03': 'idle-in-transaction time-out (connection closed)',
  '25P04': 'transaction time-out (connection closed)',
  '53100': 'disk full',
  '53200': 'out of memory',
  '53300': 'too many connections',
  '53400': 'configuration limit exceeded',
  '25006': 'read-only transaction (fail-over in progress?)',
  '58000': 'system error',
  '58030': 'I/O error',
};

/**
 * SQLSTATEs of a FATAL error that ends the session (shut down, crashed, starting, a session or
 * transaction time-out): nothing of the statement was written.
 */
const SESSION_ENDING_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '57P05', '25P03', '25P04']);

/** Non-retryable SQLSTATEs worth naming on their own (their class's name would mislead). */
const NAMED_SQLSTATES: Readonly<Record<string, string>> = {
  '42501': 'insufficient privilege (the role may not do this; migrating needs CREATE on the schema)',
  '42P01': 'undefined table (is the schema migrated?)',
  '28P01': 'password authentication failed',
  '3D000': 'database does not exist',
  // Raised by migration 10's trigger on paystate_client_tokens (a release before it sends these).
  PSRT1: 'refusal: a retired token cannot be stored again',
  PSRT2: "refusal: a token's expiry cannot be lifted or made later",
};

/** Names of the non-retryable SQLSTATE classes, for messages that say what went wrong without echoing data. */
const SQLSTATE_CLASSES: Readonly<Record<string, string>> = {
  '08': 'connection exception',
  '22': 'data exception',
  '23': 'integrity constraint violation',
  '25': 'invalid transaction state',
  '28': 'invalid authorization',
  '3D': 'invalid catalog name (no such database)',
  '3F': 'invalid schema name',
  '42': 'syntax error or access rule violation (is the schema migrated?)',
  '53': 'insufficient resources',
  '54': 'program limit exceeded',
  '55': 'object not in prerequisite state',
  '57': 'operator intervention',
  XX: 'internal error',
};

interface ErrorFields {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly constraint?: unknown;
  readonly table?: unknown;
  readonly syscall?: unknown;
}

const fieldsOf = (error: unknown): ErrorFields =>
  typeof error === 'object' && error !== null ? (error as ErrorFields) : {};

const isSqlState = (code: unknown): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** Table and constraint names come from the schema, never from the data: safe to name. */
function where(fields: ErrorFields): string {
  const parts: string[] = [];
  if (typeof fields.table === 'string') parts.push(`table ${fields.table}`);
  if (typeof fields.constraint === 'string') parts.push(`constraint ${fields.constraint}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** True when `error` says the connection to the server could not be made or was lost. */
export function isConnectionError(error: unknown): boolean {
  const fields = fieldsOf(error);
  if (typeof fields.code === 'string') {
    if (CONNECTION_ERROR_CODES.has(fields.code)) return true;
    if (isSqlState(fields.code) && fields.code.startsWith('08')) return true;
    if (SESSION_ENDING_SQLSTATES.has(fields.code)) return true;
  }
  const message = typeof fields.message === 'string' ? fields.message : '';
  return DRIVER_CONNECTION_MESSAGES.some((fragment) => message.includes(fragment));
}

/**
 * True when `error` says for certain that the statement never reached the server: a connection
 * attempt's error, or one `pg` raises before handing the statement over. A lost connection may not.
 */
export function isNotSentError(error: unknown): boolean {
  const { code, message } = fieldsOf(error);
  if (typeof code === 'string') return NOT_SENT_ERROR_CODES.has(code);
  return typeof message === 'string' && NOT_SENT_MESSAGES.some((fragment) => message.includes(fragment));
}

/**
 * `classifyPostgresError`, marked `notSent` when getting a connection failed (`stage: 'connect'`) or
 * the error says the statement was never handed over (`isNotSentError`); docs/postgres.md#errors.
 */
export function classifyStatementFailure(error: unknown, stage: 'connect' | 'query'): PostgresFailure {
  const failure = classifyPostgresError(error);
  return stage === 'connect' || isNotSentError(error) ? { ...failure, notSent: true } : failure;
}

/**
 * Classifies anything `pg` threw, in this one place: a unique or money-invariant violation is a
 * `conflict`, a passing failure a retryable `unavailable`, anything else not (docs/postgres.md#errors).
 * Messages never repeat the server's, which can quote the statement's values.
 */
export function classifyPostgresError(error: unknown): PostgresFailure {
  const fields = fieldsOf(error);
  const code = fields.code;
  const unavailable = (message: string, retryable: boolean): PostgresFailure => ({
    code: 'unavailable',
    message,
    retryable,
  });
  if (code === '23505') {
    return { code: 'conflict', message: `Postgres unique violation (23505)${where(fields)}`, retryable: false };
  }
  if (code === '23514' && typeof fields.constraint === 'string' && fields.constraint.startsWith(MONEY_CHECK)) {
    return {
      code: 'conflict',
      message: `Postgres money invariant refused the write (23514)${where(fields)}`,
      retryable: false,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    // Retryable: names can stop resolving for a moment during a fail-over.
    return unavailable(`Postgres host name not found (${code})`, true);
  }
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) {
    return unavailable(`Postgres connection lost or refused (${code})`, true);
  }
  if (isSqlState(code)) {
    const retryable = RETRYABLE_SQLSTATES[code];
    if (retryable !== undefined) return unavailable(`Postgres ${retryable} (${code})`, true);
    if (code.startsWith('08')) return unavailable(`Postgres connection exception (${code})`, true);
    const kind = NAMED_SQLSTATES[code] ?? SQLSTATE_CLASSES[code.slice(0, 2)] ?? 'error';
    return unavailable(`Postgres ${kind} (${code})${where(fields)}`, false);
  }
  if (isConnectionError(error)) {
    return unavailable(`Postgres connection lost or refused${typeof code === 'string' ? ` (${code})` : ''}`, true);
  }
  // Set-up mistakes the driver reports without a SQLSTATE. Their own messages are not repeated:
  // an invalid URL's error carries the connection string, password included.
  if (code === 'ERR_INVALID_URL') return unavailable('The Postgres connection string is not a valid URL', false);
  if (typeof code === 'string' && fields.syscall === 'open') {
    // `pg` reads the files of sslrootcert, sslcert and sslkey when it connects.
    return unavailable(
      `Could not read a file the Postgres connection string names (sslrootcert, sslcert or sslkey): ${code}`,
      false,
    );
  }
  if (typeof code === 'string' && TLS_CERTIFICATE_CODES.has(code)) {
    return unavailable(
      `The Postgres server's TLS certificate was not accepted (${code}): give its CA with sslrootcert`,
      false,
    );
  }
  const message = typeof fields.message === 'string' ? fields.message : '';
  if (message.includes(POOL_ENDED)) return unavailable('The Postgres pool has been ended (closed)', false);
  if (message.includes('does not support SSL')) {
    return unavailable(
      'The Postgres server does not support SSL, which the connection string asks for (sslmode)',
      false,
    );
  }
  return unavailable('Postgres call failed (no SQLSTATE)', false);
}

/** For ports whose only error is `unavailable`: a `conflict` there is a lost race that a retry resolves. */
export function asUnavailable(failure: PostgresFailure): PortFailure<'unavailable'> {
  return {
    code: 'unavailable',
    message: failure.message,
    retryable: failure.code === 'unavailable' ? failure.retryable : true,
    ...(failure.notSent === true && { notSent: true }),
  };
}
