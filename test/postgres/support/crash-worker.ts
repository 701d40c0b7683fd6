/*
 * An engine instance that gets killed in the crash test: its acquirer tells the parent when a
 * payment reached the acquirer (before or after the acquirer recorded the authorization) and
 * then never answers, so the parent can kill the process between the acquirer call and the
 * commit of the outcome.
 */
import pg from 'pg';
import { directRequest } from '../../support/requests.js';
import { compliantClient, makePostgresEngine } from './postgres-engine.js';
import { createRecordingAcquirer } from './recording-acquirer.js';

export interface CrashCreate {
  readonly type: 'create';
  readonly card: string;
  /** Hang before the acquirer records the authorization, or after. */
  readonly pauseAt: 'before_record' | 'after_record';
}

export interface CrashPaused {
  readonly type: 'paused';
  readonly paymentId: string;
  readonly stage: CrashCreate['pauseAt'];
}

const pool = new pg.Pool({ connectionString: process.env['CRASH_DATABASE_URL'] ?? '', max: 4 });
pool.on('error', () => undefined);
/** Where the payment of the latest create pauses (the parent sends one create at a time). */
let pauseAt: CrashCreate['pauseAt'] | null = null;

const harness = makePostgresEngine({
  pool,
  seed: 7,
  acquirer: createRecordingAcquirer({
    pool,
    caller: 'doomed',
    pause: async (stage, paymentId) => {
      if (stage !== pauseAt) return;
      pauseAt = null;
      process.send?.({ type: 'paused', paymentId, stage } satisfies CrashPaused);
      await new Promise<never>(() => undefined);
    },
  }),
});

process.on('message', (message: unknown) => {
  const create = message as Partial<CrashCreate>;
  if (create.type !== 'create' || create.card === undefined || create.pauseAt === undefined) return;
  pauseAt = create.pauseAt;
  void harness.engine.createPayment({
    client: compliantClient,
    profileId: 'profile_0001',
    body: directRequest(create.card),
  });
});

process.send?.({ type: 'ready' });
