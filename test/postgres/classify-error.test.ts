import { describe, expect, it } from 'vitest';
import { asUnavailable, classifyPostgresError, isConnectionError } from '../../adapters/postgres/index.js';

/** A server error as `pg` raises it: message and detail may quote the statement's values. */
const serverError = (code: string, extra: Record<string, string> = {}) =>
  Object.assign(new Error(`invalid input syntax for type bigint: "4242424242424242"`), {
    code,
    detail: 'Key (id)=(4242424242424242) already exists.',
    ...extra,
  });

describe('classifyPostgresError', () => {
  it('makes a unique violation a conflict', () => {
    expect(
      classifyPostgresError(serverError('23505', { constraint: 'paystate_payments_pkey', table: 'paystate_payments' })),
    ).toEqual({
      code: 'conflict',
      message: 'Postgres unique violation (23505) (table paystate_payments, constraint paystate_payments_pkey)',
      retryable: false,
    });
  });

  it.each([
    '40001',
    '40P01',
    '55P03',
    '57014',
    '57P01',
    '57P02',
    '57P03',
    '57P05',
    '53100',
    '53200',
    '53300',
    '08000',
    '08006',
    '08003',
    '25006',
  ])('makes %s unavailable and retryable', (code) => {
    expect(classifyPostgresError(serverError(code))).toMatchObject({ code: 'unavailable', retryable: true });
  });

  it.each(['57P01', '57P02', '57P03', '57P05', '08006'])('takes %s for a lost connection', (code) => {
    expect(isConnectionError(serverError(code))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])(
    'makes a %s socket error unavailable and retryable',
    (code) => {
      const error = Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
      expect(isConnectionError(error)).toBe(true);
      expect(classifyPostgresError(error)).toMatchObject({ code: 'unavailable', retryable: true });
    },
  );

  it.each(['Connection terminated unexpectedly', 'timeout exceeded when trying to connect', 'Query read timeout'])(
    'makes the driver error "%s" unavailable and retryable',
    (message) => {
      expect(classifyPostgresError(new Error(message))).toMatchObject({ code: 'unavailable', retryable: true });
    },
  );

  it.each(['22P02', '23514', '42P01', '42703', 'XX000', '3D000'])('makes %s unavailable and not retryable', (code) => {
    expect(classifyPostgresError(serverError(code))).toMatchObject({ code: 'unavailable', retryable: false });
  });

  // Found by a reviewing helper: these read as "no SQLSTATE", "connection lost or refused" or
  // "is the schema migrated?", none of which says what to fix.
  it("names the refusals of migration 10's token trigger, which a release before it meets (not retryable)", () => {
    expect(classifyPostgresError({ code: 'PSRT1', message: 'a retired token cannot be stored again' })).toEqual({
      code: 'unavailable',
      message: 'Postgres refusal: a retired token cannot be stored again (PSRT1)',
      retryable: false,
    });
    expect(classifyPostgresError({ code: 'PSRT2', message: 'x' })).toMatchObject({
      message: "Postgres refusal: a token's expiry cannot be lifted or made later (PSRT2)",
      retryable: false,
    });
  });

  it('names set-up mistakes: an invalid URL (never echoing it), SSL refused, an unknown host, a missing privilege', () => {
    const invalidUrl = Object.assign(new TypeError('Invalid URL'), {
      code: 'ERR_INVALID_URL',
      input: 'postgres://u:hunter2@h:x/db',
    });
    const url = classifyPostgresError(invalidUrl);
    expect(url).toEqual({
      code: 'unavailable',
      message: 'The Postgres connection string is not a valid URL',
      retryable: false,
    });
    expect(classifyPostgresError(new Error('The server does not support SSL connections')).message).toMatch(/sslmode/);
    expect(classifyPostgresError(Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' }))).toEqual({
      code: 'unavailable',
      message: 'Postgres host name not found (ENOTFOUND)',
      retryable: true,
    });
    expect(
      classifyPostgresError(Object.assign(new Error('permission denied for schema public'), { code: '42501' })),
    ).toEqual({
      code: 'unavailable',
      message:
        'Postgres insufficient privilege (the role may not do this; migrating needs CREATE on the schema) (42501)',
      retryable: false,
    });
  });

  // Found by a reviewing helper: `paystate migrate` with an sslrootcert it could not read, or
  // against a server whose certificate TLS refused (pg takes sslmode=require for verify-full),
  // said "Postgres call failed (no SQLSTATE)".
  it('names an SSL file it cannot read and a server certificate TLS refused', () => {
    const unreadable = Object.assign(new Error("ENOENT: no such file or directory, open '/etc/ca.pem'"), {
      code: 'ENOENT',
      syscall: 'open',
      path: '/etc/ca.pem',
    });
    expect(classifyPostgresError(unreadable)).toEqual({
      code: 'unavailable',
      message: 'Could not read a file the Postgres connection string names (sslrootcert, sslcert or sslkey): ENOENT',
      retryable: false,
    });
    const refused = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(classifyPostgresError(refused)).toEqual({
      code: 'unavailable',
      message:
        "The Postgres server's TLS certificate was not accepted (SELF_SIGNED_CERT_IN_CHAIN): give its CA with sslrootcert",
      retryable: false,
    });
  });

  it('never repeats the server message or detail, which can quote values', () => {
    for (const code of ['23505', '22P02', '23514', '40001', '08006']) {
      const { message } = classifyPostgresError(serverError(code));
      expect(message).toContain(code);
      expect(message).not.toContain('4242');
    }
    expect(classifyPostgresError(new Error('4242424242424242')).message).not.toContain('4242');
    expect(classifyPostgresError('not even an error')).toMatchObject({ code: 'unavailable', retryable: false });
  });

  it('turns a conflict into a retryable unavailable for ports without conflicts', () => {
    expect(asUnavailable(classifyPostgresError(serverError('23505')))).toMatchObject({
      code: 'unavailable',
      retryable: true,
    });
    expect(asUnavailable(classifyPostgresError(serverError('22P02')))).toMatchObject({
      code: 'unavailable',
      retryable: false,
    });
  });
});
