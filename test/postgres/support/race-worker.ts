/*
 * One engine instance of the race test, in its own process: Postgres repository (its own pool
 * and lease id), the recording acquirer, the stateless 3DS verifier and the parent's card vault.
 * It runs the operations the parent sends, all at once, with its clock at the given time.
 */
import pg from 'pg';
import { cardSubmission } from '../../support/requests.js';
import { createIpcCardVault } from './ipc-card-vault.js';
import { makePostgresEngine } from './postgres-engine.js';
import { createRecordingAcquirer } from './recording-acquirer.js';
import { createStatelessThreeDS } from './stateless-three-ds.js';

export type RaceOperation =
  | { readonly kind: 'submit'; readonly paymentId: string; readonly token: string; readonly card: string }
  | { readonly kind: 'challenge'; readonly paymentId: string; readonly transactionId: string; readonly cres: string }
  | { readonly kind: 'sweep' };

export interface RaceRun {
  readonly type: 'run';
  readonly id: number;
  readonly now: number;
  readonly operations: readonly RaceOperation[];
}

/** What one operation ended with: `ok` or the engine's error code. */
export interface RaceResult {
  readonly kind: RaceOperation['kind'];
  readonly paymentId: string | null;
  readonly outcome: string;
}

const url = process.env['RACE_DATABASE_URL'] ?? '';
const name = process.env['RACE_WORKER'] ?? 'worker';
const pool = new pg.Pool({ connectionString: url, max: 12 });
pool.on('error', () => undefined);
const harness = makePostgresEngine({
  pool,
  seed: Number(process.env['RACE_SEED'] ?? '1'),
  acquirer: createRecordingAcquirer({ pool, caller: name }),
  threeDS: createStatelessThreeDS(),
  cardVault: createIpcCardVault(),
});
const { engine } = harness;

async function perform(operation: RaceOperation): Promise<RaceResult> {
  switch (operation.kind) {
    case 'submit': {
      const result = await engine.submitCard({
        paymentId: operation.paymentId,
        token: operation.token,
        body: cardSubmission(operation.card),
      });
      return { kind: 'submit', paymentId: operation.paymentId, outcome: result.isOk() ? 'ok' : result.error.code };
    }
    case 'challenge': {
      const result = await engine.completeChallenge(operation);
      return { kind: 'challenge', paymentId: operation.paymentId, outcome: result.isOk() ? 'ok' : result.error.code };
    }
    case 'sweep': {
      const result = await engine.sweep();
      return { kind: 'sweep', paymentId: null, outcome: result.isOk() ? 'ok' : result.error.code };
    }
  }
}

process.on('message', (message: unknown) => {
  const request = message as { type?: string };
  if (request.type === 'stop') {
    void harness.close().finally(() => pool.end().finally(() => process.exit(0)));
    return;
  }
  if (request.type !== 'run') return;
  const run = message as RaceRun;
  harness.clock.set(run.now);
  void Promise.all(run.operations.map(perform)).then((results) => process.send?.({ type: 'ran', id: run.id, results }));
});

process.send?.({ type: 'ready' });
