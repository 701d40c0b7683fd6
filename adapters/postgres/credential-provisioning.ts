import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStoreError } from '../../src/ports/credential-store.js';
import {
  clientProblem,
  clockTime,
  foreignProfilesMessage,
  newTokenProblem,
  overlapExpiry,
  TOKEN_ID_PATTERN,
  tokenExpiry,
} from '../../src/ports/credential-provisioning-checks.js';
import {
  invalidInput,
  provisioningError,
  type ClientToken,
  type CredentialProvisioning,
  type CredentialProvisioningError,
  type NewClient,
  type ProvisioningFailure,
  type RolledToken,
  type TokenRef,
} from '../../src/ports/credential-provisioning.js';
import { clientIdForTokenDigest, tokenDigest } from '../shared/index.js';
import { clientOf, iso, listed, sameDigest, timeOf, type ClientRow, type TokenRow } from './credential-rows.js';
import {
  DELETE_CLIENT,
  DELETE_TOKENS,
  INSERT_CLIENT,
  INSERT_TOKEN,
  LIST_TOKENS,
  LOCK_CLIENT,
  PROFILES_ALLOWED,
  PURGE_EXPIRED,
  PURGE_EXPIRED_DIGEST,
  REMOVE_CLIENT,
  RETIRE_TOKENS,
  RETIRED_TOKEN_SQLSTATE,
  TOKEN_OWNER,
  UPDATE_CLIENT,
  WORKING_TOKEN_CLIENT,
  WORKING_TOKENS,
} from './credential-statements.js';
import type { Query, Run } from './run-statement.js';

/** What provisioning needs of its store: statements, transactions and the clock of token expiry. */
export interface ProvisioningHost {
  readonly run: Run;
  readonly transaction: <T, E>(
    work: (query: Query) => Promise<Result<T, E>>,
  ) => Promise<Result<T, E | CredentialStoreError>>;
  readonly clock: Clock;
}

/** Whether a stored token is the one `ref` names (`ref` by token: its digest is `digest`). */
const named = (row: TokenRow, ref: TokenRef, digest: Buffer | null): boolean =>
  digest !== null ? sameDigest(row.token_sha256, digest) : !('token' in ref) && row.token_id === ref.tokenId;

/** Stores a token row: `token_in_use` when the digest is another row's, `token_retired` when it was retired. */
async function insertToken(
  query: Query,
  values: readonly unknown[],
): Promise<Result<TokenRow, CredentialProvisioningError>> {
  try {
    const row = (await query<TokenRow>(INSERT_TOKEN, values)).rows[0];
    return row === undefined ? err(provisioningError('token_in_use')) : ok(row);
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { readonly code?: unknown }).code : undefined;
    if (code === RETIRED_TOKEN_SQLSTATE) return err(provisioningError('token_retired'));
    throw error;
  }
}

/** Finds the tokens `ref` names that work at `now`, with their client locked; null client: none such. */
async function lockNamed(
  query: Query,
  ref: TokenRef,
  now: number,
): Promise<{ readonly clientId: string | null; readonly named: TokenRow[]; readonly others: TokenRow[] }> {
  const digest = 'token' in ref ? tokenDigest(ref.token) : null;
  let clientId: string | undefined;
  if (digest !== null) {
    // A token presented and found expired is retired for good; this locks that one row or none.
    await query(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
    clientId = (await query<{ client_id: string }>(WORKING_TOKEN_CLIENT, [digest, iso(now)])).rows[0]?.client_id;
  } else if (!('token' in ref)) {
    clientId = ref.clientId;
  }
  if (clientId === undefined) return { clientId: null, named: [], others: [] };
  if ((await query(LOCK_CLIENT, [clientId])).rowCount !== 1) return { clientId: null, named: [], others: [] };
  await query(PURGE_EXPIRED, [clientId, null, iso(now)]);
  const rows = (await query<TokenRow>(WORKING_TOKENS, [clientId, iso(now)])).rows;
  const wanted = digest !== null || ('tokenId' in ref && TOKEN_ID_PATTERN.test(ref.tokenId));
  return {
    clientId,
    named: wanted ? rows.filter((row) => named(row, ref, digest)) : [],
    others: rows.filter((row) => !wanted || !named(row, ref, digest)),
  };
}

/** Clients and their tokens on Postgres: the `CredentialProvisioning` of the credential store. */
export function createCredentialProvisioning({ run, transaction, clock }: ProvisioningHost): CredentialProvisioning {
  /** One attempt of `putClient`, in a transaction. */
  const putClientOnce = (client: NewClient, digest: Buffer, now: number) =>
    transaction(async (query): Promise<Result<Client, ProvisioningFailure>> => {
      await query(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
      const owner = (await query<{ client_id: string }>(TOKEN_OWNER, [digest])).rows[0]?.client_id;
      if (owner !== undefined && client.id !== undefined && owner !== client.id) {
        return err(provisioningError('token_in_use'));
      }
      const allowed = await query<{ allowed: boolean }>(PROFILES_ALLOWED, [client.partnerId, [...client.profileIds]]);
      if (allowed.rows[0]?.allowed !== true) {
        return err(invalidInput('invalid_client', foreignProfilesMessage(client.partnerId)));
      }
      const attributes = [client.partnerId, [...client.profileIds], client.pciDssCompliant];
      if (owner !== undefined) {
        // The owner's row is locked, so the client cannot be deleted, nor its tokens changed, meanwhile.
        const updated = await query<ClientRow>(UPDATE_CLIENT, [owner, ...attributes]);
        return ok(clientOf(updated.rows[0] as ClientRow));
      }
      const id = client.id ?? clientIdForTokenDigest(digest);
      const inserted = (await query<ClientRow>(INSERT_CLIENT, [id, ...attributes])).rows[0];
      if (inserted === undefined) return err(provisioningError('client_exists'));
      const token = await insertToken(query, [digest, id, iso(now), null]);
      return token.isOk() ? ok(clientOf(inserted)) : err(token.error);
    });

  return {
    async putClient(client) {
      const problem = clientProblem(client);
      if (problem !== null) return err(invalidInput('invalid_client', problem));
      const digest = tokenDigest(client.token);
      const first = await putClientOnce(client, digest, clockTime(clock));
      // A writer of the same token or id may have committed while this attempt ran: the second sees it.
      if (first.isOk() || (first.error.code !== 'client_exists' && first.error.code !== 'token_in_use')) return first;
      return putClientOnce(client, digest, clockTime(clock));
    },

    async removeClient(token) {
      const digest = tokenDigest(token);
      const now = iso(clockTime(clock));
      // A token presented and found expired is retired for good.
      const purged = await run(PURGE_EXPIRED_DIGEST, [digest, now]);
      if (purged.isErr()) return err(purged.error);
      return (await run(REMOVE_CLIENT, [digest, now])).map((result) => (result.rowCount ?? 0) > 0);
    },

    async addToken(request) {
      const problem = newTokenProblem(request.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const expiry = tokenExpiry(now, request.expiresAt);
      if (expiry.isErr()) return err(expiry.error);
      const digest = tokenDigest(request.token);
      return transaction(async (query): Promise<Result<ClientToken, ProvisioningFailure>> => {
        if ((await query(LOCK_CLIENT, [request.clientId])).rowCount !== 1) {
          return err(provisioningError('unknown_client'));
        }
        await query(PURGE_EXPIRED, [request.clientId, digest, iso(now)]);
        const expiresAt = expiry.value === null ? null : iso(expiry.value);
        return (await insertToken(query, [digest, request.clientId, iso(now), expiresAt])).map(listed);
      });
    },

    async rollToken(roll) {
      const problem = newTokenProblem(roll.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const until = overlapExpiry(now, roll.overlapMs);
      if (until.isErr()) return err(until.error);
      const digest = tokenDigest(roll.token);
      return transaction(async (query): Promise<Result<RolledToken, ProvisioningFailure>> => {
        const { clientId, named: old } = await lockNamed(query, roll.old, now);
        if (clientId === null) return err(provisioningError('token' in roll.old ? 'unknown_token' : 'unknown_client'));
        if (old.length === 0) return err(provisioningError('unknown_token'));
        await query(PURGE_EXPIRED, [clientId, digest, iso(now)]);
        const inserted = await insertToken(query, [digest, clientId, iso(now), null]);
        if (inserted.isErr()) return err(inserted.error);
        const digests = old.map((row) => row.token_sha256);
        if (until.value <= now) await query(DELETE_TOKENS, [digests]);
        else await query(RETIRE_TOKENS, [digests, iso(until.value)]);
        const retired = old[0] as TokenRow;
        const before = timeOf(retired.expires_at);
        const expiresAt = before === null ? until.value : Math.min(before, until.value);
        return ok({ added: listed(inserted.value), retired: { ...listed(retired), expiresAt } });
      });
    },

    async revokeToken(ref) {
      const now = clockTime(clock);
      return transaction(async (query): Promise<Result<boolean, CredentialStoreError>> => {
        const { clientId, named: revoked, others } = await lockNamed(query, ref, now);
        if (clientId === null || revoked.length === 0) return ok(false);
        if (others.length === 0) await query(DELETE_CLIENT, [clientId]);
        else await query(DELETE_TOKENS, [revoked.map((row) => row.token_sha256)]);
        return ok(true);
      });
    },

    async listTokens(clientId) {
      const result = await run<TokenRow>(LIST_TOKENS, [clientId, iso(clockTime(clock))]);
      if (result.isErr()) return err(result.error);
      const rows = result.value.rows;
      return ok(rows.length === 0 ? null : rows.filter((row) => row.token_sha256 !== null).map(listed));
    },
  };
}
