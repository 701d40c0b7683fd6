import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { Acquirer } from '../../src/ports/acquirer.js';
import type { CrashCreate, CrashPaused } from './support/crash-worker.js';
import { forkWorker } from './support/fork-worker.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { makePostgresEngine } from './support/postgres-engine.js';
import { ACQUIRER_CALLS_TABLE, authorizeCalls, createRecordingAcquirer } from './support/recording-acquirer.js';
import { moneyOperationsOf } from '../support/money-operations.js';

const db = useMigratedDatabase();

const eventTypes = async (paymentId: string): Promise<string[]> =>
  (
    await db.pool.query<{ event_type: string }>(
      'SELECT event_type FROM paystate_outbox WHERE payment_id = $1 ORDER BY sequence',
      [paymentId],
    )
  ).rows.map((row) => row.event_type);

describe('a process killed between the acquirer call and the commit of the outcome', () => {
  it('leaves the intent stored, and the sweeper of another process reconciles it without authorizing again', async () => {
    await db.pool.query(ACQUIRER_CALLS_TABLE);
    const doomed = await forkWorker('./crash-worker.ts', { CRASH_DATABASE_URL: db.connectionString });
    const pause = async (create: Omit<CrashCreate, 'type'>): Promise<CrashPaused> => {
      const paused = doomed.next<CrashPaused>('paused');
      doomed.child.send({ type: 'create', ...create } satisfies CrashCreate);
      return paused;
    };
    // Charged: the acquirer recorded the authorization, the answer never got committed.
    const charged = await pause({ card: '4242424242424242', pauseAt: 'after_record' });
    // Not charged: the process died before the acquirer received the request.
    const unsent = await pause({ card: '5555555555554444', pauseAt: 'before_record' });
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const { rows } = await db.pool.query<{ id: string; state: string; authorization_status: string; version: number }>(
      'SELECT id, state, authorization_status, version FROM paystate_payments ORDER BY id',
    );
    expect(rows).toEqual(
      [charged.paymentId, unsent.paymentId]
        .sort()
        .map((id) => ({ id, state: 'authorizing', authorization_status: 'requested', version: 1 })),
    );
    expect(await eventTypes(charged.paymentId)).toEqual(['payment.created']);
    expect(Object.fromEntries(await authorizeCalls(db.pool))).toEqual({ [charged.paymentId]: 1 });

    // Another instance: its acquirer answers inquiries from what the dead process's acquirer
    // decided, and must never be asked to authorize.
    const recording = createRecordingAcquirer({ pool: db.pool, caller: 'survivor' });
    let authorizeAttempts = 0;
    const acquirer: Acquirer = {
      authorize: async () => {
        authorizeAttempts += 1;
        return err({ code: 'unavailable', message: 'must not be called', retryable: false });
      },
      inquire: (request) => recording.inquire(request),
      ...moneyOperationsOf(recording),
    };
    const survivor = makePostgresEngine({ pool: db.pool, seed: 8, acquirer });
    const before = (await survivor.engine.getPaymentRecord(charged.paymentId))._unsafeUnwrap();
    expect(before.nextInquiryAt).not.toBeNull();

    survivor.clock.set((before.nextInquiryAt ?? 0) - 1);
    expect((await survivor.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 0, stillUnknown: 0 });
    // Sweep on as the inquiry schedule says (`not_found` is only believed after a few inquiries).
    let reconciled = 0;
    for (let tick = 0; tick < 10; tick++) {
      const { rows: waiting } = await db.pool.query<{ due: string | null }>(
        `SELECT min((extract(epoch from next_inquiry_at) * 1000)::int8) AS due FROM paystate_payments WHERE state = 'authorizing'`,
      );
      const due = waiting[0]?.due;
      if (due === null || due === undefined) break;
      survivor.clock.set(Math.max(survivor.clock.now(), Number(due)));
      const report = (await survivor.engine.sweep())._unsafeUnwrap();
      expect(report.conflicts).toBe(0);
      reconciled += report.reconciled;
    }
    expect(reconciled).toBe(2);

    const repaired = (await survivor.engine.getPaymentRecord(charged.paymentId))._unsafeUnwrap();
    expect(repaired.state).toBe('succeeded');
    const decided = await db.pool.query<{ rrn: string }>(
      `SELECT decided->>'rrn' AS rrn FROM acquirer_calls WHERE payment_id = $1`,
      [charged.paymentId],
    );
    expect(repaired.authorization?.rrn).toBe(decided.rows[0]?.rrn);
    expect(await eventTypes(charged.paymentId)).toEqual(['payment.created', 'payment.succeeded']);

    const failed = (await survivor.engine.getPaymentRecord(unsent.paymentId))._unsafeUnwrap();
    expect(failed).toMatchObject({ state: 'failed', failureReason: 'processing_error' });
    expect(await eventTypes(unsent.paymentId)).toEqual(['payment.created', 'payment.failed']);

    expect(authorizeAttempts).toBe(0);
    expect(Object.fromEntries(await authorizeCalls(db.pool))).toEqual({ [charged.paymentId]: 1 });
    await survivor.close();
  });
});
