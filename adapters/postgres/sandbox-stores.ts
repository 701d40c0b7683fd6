import { err, ok, type Result } from 'neverthrow';
import type { Pool } from 'pg';
import type { PortFailure } from '../../src/ports/port-result.js';
import type {
  SandboxAuthorization,
  SandboxAuthorizationStore,
  SandboxChallenge,
  SandboxChallengeStore,
  SandboxOperationStore,
} from '../sandbox/index.js';
import { runner, type Statement } from './run-statement.js';
import { createPostgresSandboxOperationStore } from './sandbox-operation-store.js';

/** The simulated acquirer's and issuer's state on one database (migrations 12, 16), shared by every sandbox instance. */
export interface PostgresSandboxStores {
  readonly authorizations: SandboxAuthorizationStore;
  readonly challenges: SandboxChallengeStore;
  /** The simulated acquirer's captures, cancels and refunds (migration 16). */
  readonly operations: SandboxOperationStore;
  /** Deletes challenges started before `before` (epoch ms); answers how many. */
  purgeChallenges(before: number): Promise<Result<number, PortFailure>>;
}

const KEEP_AUTHORIZATION: Statement = {
  name: 'paystate_sandbox_keep_authorization',
  text: `INSERT INTO paystate_sandbox_authorizations (payment_id, record) VALUES ($1, $2)
         ON CONFLICT (payment_id) DO NOTHING RETURNING record`,
};
const FIND_AUTHORIZATION: Statement = {
  name: 'paystate_sandbox_find_authorization',
  text: 'SELECT record FROM paystate_sandbox_authorizations WHERE payment_id = $1',
};
const KEEP_CHALLENGE: Statement = {
  name: 'paystate_sandbox_keep_challenge',
  text: `INSERT INTO paystate_sandbox_challenges (transaction_id, payment_id, challenge, status)
         VALUES ($1, $2, $3, $4)`,
};
const FIND_CHALLENGE: Statement = {
  name: 'paystate_sandbox_find_challenge',
  text: 'SELECT challenge, status FROM paystate_sandbox_challenges WHERE transaction_id = $1',
};
/** From pending only: the first answer wins, whichever instance took it. */
const RESOLVE_CHALLENGE: Statement = {
  name: 'paystate_sandbox_resolve_challenge',
  text: `UPDATE paystate_sandbox_challenges SET status = $2
         WHERE transaction_id = $1 AND status = 'pending' RETURNING challenge, status`,
};
const PURGE_CHALLENGES: Statement = {
  name: 'paystate_sandbox_purge_challenges',
  text: `DELETE FROM paystate_sandbox_challenges WHERE created_at < to_timestamp($1::float8 / 1000)`,
};

interface ChallengeRow {
  readonly challenge: SandboxChallenge;
  readonly status: SandboxChallenge['status'];
}

const asChallenge = (row: ChallengeRow | undefined): SandboxChallenge | null =>
  row === undefined ? null : { ...row.challenge, status: row.status };

/** The sandbox stores on `pool` (migrated to version 16 or later). The pool stays the caller's. */
export function createPostgresSandboxStores(
  pool: Pool,
  options: { readonly preparedStatements?: boolean } = {},
): PostgresSandboxStores {
  const prepared = options.preparedStatements ?? true;
  const run = runner(pool, prepared);

  const findAuthorization = async (paymentId: string) =>
    (await run<{ record: SandboxAuthorization }>(FIND_AUTHORIZATION, [paymentId])).map(
      (found) => found.rows[0]?.record ?? null,
    );

  const authorizations: SandboxAuthorizationStore = {
    async keep(record) {
      const inserted = await run<{ record: SandboxAuthorization }>(KEEP_AUTHORIZATION, [
        record.paymentId,
        JSON.stringify(record),
      ]);
      if (inserted.isErr()) return err(inserted.error);
      if (inserted.value.rows.length > 0) return ok({ record, created: true });
      // Another call kept one first; a new statement sees it once it is committed.
      const kept = await findAuthorization(record.paymentId);
      if (kept.isErr()) return err(kept.error);
      if (kept.value === null) return err({ code: 'unavailable', message: 'authorization vanished', retryable: true });
      return ok({ record: kept.value, created: false });
    },
    find: findAuthorization,
  };

  const challenges: SandboxChallengeStore = {
    async keep(challenge) {
      const { status, ...rest } = challenge;
      const values = [challenge.transactionId, challenge.paymentId, JSON.stringify(rest), status];
      return (await run(KEEP_CHALLENGE, values)).map(() => undefined);
    },
    async find(transactionId) {
      return (await run<ChallengeRow>(FIND_CHALLENGE, [transactionId])).map((found) => asChallenge(found.rows[0]));
    },
    async resolve(transactionId, status) {
      const resolved = await run<ChallengeRow>(RESOLVE_CHALLENGE, [transactionId, status]);
      if (resolved.isErr()) return err(resolved.error);
      if (resolved.value.rows.length > 0) return ok(asChallenge(resolved.value.rows[0]));
      return challenges.find(transactionId);
    },
  };

  return {
    authorizations,
    challenges,
    operations: createPostgresSandboxOperationStore(pool, prepared),
    async purgeChallenges(before) {
      return (await run(PURGE_CHALLENGES, [before])).map((purged) => purged.rowCount ?? 0);
    },
  };
}
