import { err, ok } from 'neverthrow';
import type { CardVault, CardVaultError } from '../../src/ports/card-vault.js';
import type { Clock } from '../../src/ports/clock.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { checkKeyRing, openCard, sealCard, type CardVaultKey } from './card-vault-cipher.js';
import { openPoolStore, type PoolStore, type PoolStoreOptions, type Statement } from './run-statement.js';

/** Options of `createPostgresCardVault`: the connection, the key ring (newest last) and the engine's clock. */
export type PostgresCardVaultOptions = PoolStoreOptions & {
  /** Keys by id, 32 bytes each; new cards are sealed under the last, the others stay readable. */
  readonly keys: readonly CardVaultKey[];
  /** Judges when a card's deadline has passed: pass the engine's. */
  readonly clock: Clock;
};

/** The Postgres `CardVault`, with its pool and `close()`. */
export interface PostgresCardVault extends CardVault, Pick<PoolStore, 'pool' | 'close'> {
  /** Deletes every card whose deadline is at or before `now` (epoch ms); answers how many. */
  purgeExpired(now: number): PortResult<number, CardVaultError>;
}

const PUT: Statement = {
  name: 'paystate_card_vault_put',
  text: `INSERT INTO paystate_card_vault (payment_id, key_id, iv, sealed, tag, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (payment_id) DO UPDATE SET key_id = excluded.key_id, iv = excluded.iv,
           sealed = excluded.sealed, tag = excluded.tag, expires_at = excluded.expires_at`,
};
/** Reads and deletes in one statement: of instances racing, one gets the card. Keys not in the ring stay. */
const TAKE: Statement = {
  name: 'paystate_card_vault_take',
  text: `DELETE FROM paystate_card_vault WHERE payment_id = $1 AND key_id = ANY($2::text[])
         RETURNING key_id, iv, sealed, tag, (extract(epoch FROM expires_at) * 1000)::int8 AS expires_at`,
};
const KEY_OF: Statement = {
  name: 'paystate_card_vault_key_of',
  text: 'SELECT key_id FROM paystate_card_vault WHERE payment_id = $1',
};
const PURGE: Statement = {
  name: 'paystate_card_vault_purge',
  text: 'DELETE FROM paystate_card_vault WHERE expires_at <= $1',
};

interface TakenRow {
  readonly key_id: string;
  readonly iv: Buffer;
  readonly sealed: Buffer;
  readonly tag: Buffer;
  readonly expires_at: string;
}

/** An epoch-ms time as an ISO string, or null when it is none `Date` holds (NaN, ±Infinity, beyond ±8.64e15). */
function iso(epochMs: number): string | null {
  const time = new Date(epochMs);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

function refused(message: string): CardVaultError {
  return { code: 'unavailable', message, retryable: false };
}

/**
 * Card data between a challenge and authorization, sealed with AES-256-GCM under the newest key of
 * the ring (docs/postgres.md#card-vault). A RangeError for a bad key ring or `closeTimeoutMs`.
 */
export function createPostgresCardVault(options: PostgresCardVaultOptions): PostgresCardVault {
  const keys = checkKeyRing(options.keys);
  const byId = new Map(keys.map((key) => [key.id, key]));
  const newest = keys[keys.length - 1] as CardVaultKey;
  const { pool, run, close } = openPoolStore(options, 'Postgres card vault');

  return {
    pool,

    async put(paymentId, card, expiresAt) {
      const deadline = iso(expiresAt);
      if (deadline === null) return err(refused('card vault: the deadline is not a time'));
      const sealed = sealCard(paymentId, card, newest);
      const result = await run(PUT, [paymentId, sealed.keyId, sealed.iv, sealed.sealed, sealed.tag, deadline]);
      return result.map(() => undefined);
    },

    async take(paymentId) {
      const taken = await run<TakenRow>(TAKE, [paymentId, [...byId.keys()]]);
      if (taken.isErr()) return err(taken.error);
      const row = taken.value.rows[0];
      if (row === undefined) {
        // Nothing under this ring's keys: nothing at all, or a card under a key this instance lacks.
        const other = await run<{ key_id: string }>(KEY_OF, [paymentId]);
        if (other.isErr()) return err(other.error);
        const keyId = other.value.rows[0]?.key_id;
        if (keyId === undefined) return ok(null);
        return err(refused(`card vault: the card of ${paymentId} is under key ${keyId}, which this key ring lacks`));
      }
      if (options.clock.now() >= Number(row.expires_at)) return ok(null);
      const key = byId.get(row.key_id) as CardVaultKey;
      const card = openCard(paymentId, { keyId: row.key_id, iv: row.iv, sealed: row.sealed, tag: row.tag }, key);
      return card === null
        ? err(refused(`card vault: the card of ${paymentId} does not authenticate under key ${row.key_id}`))
        : ok(card);
    },

    async purgeExpired(now) {
      const before = iso(now);
      if (before === null) return err(refused('card vault: now is not a time'));
      return (await run(PURGE, [before])).map((result) => result.rowCount ?? 0);
    },

    close,
  };
}
