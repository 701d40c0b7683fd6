import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../../src/ports/clock.js';
import type { CredentialStoreError } from '../../src/ports/credential-store.js';
import { clockTime } from '../../src/ports/credential-provisioning-checks.js';
import { parseSandboxConfig, type SandboxConfig } from '../memory/index.js';
import { clientIdForTokenDigest, tokenDigest } from '../shared/index.js';
import { iso, timeOf } from './credential-rows.js';
import {
  IMPORT_CLIENT,
  IMPORT_TOKEN,
  KEEP_CLIENTS,
  KEEP_PROFILES,
  KEEP_TOKENS,
  LOCK_ALL_CLIENTS,
  PUT_PROFILE,
  RETIRED_CONFIG_TOKENS,
} from './credential-statements.js';
import type { Query } from './run-statement.js';

/**
 * `invalid_config`: the sandbox config failed validation; `retired_token`: a config token is retired or
 * being retired, which an import does not undo (the message names the clients, never a token).
 */
export type CredentialImportError =
  | CredentialStoreError
  | { readonly code: 'invalid_config' | 'retired_token'; readonly message: string; readonly retryable: false };

/** How many profiles and clients an import stored. */
export type ImportCounts = { readonly profiles: number; readonly clients: number };

/** Why an import refuses config tokens that are retired or being retired, naming their clients; null: none. */
function retiredConfigMessage(
  rows: readonly { readonly token_sha256: Buffer; readonly retired: boolean; readonly expires_at: string | null }[],
  now: number,
): string | null {
  if (rows.length === 0) return null;
  const clients = rows.map((row) => {
    const id = clientIdForTokenDigest(row.token_sha256);
    const expiresAt = timeOf(row.expires_at);
    return row.retired || (expiresAt !== null && expiresAt <= now)
      ? `${id} (retired)`
      : `${id} (being retired: it stops working at ${iso(expiresAt ?? now)})`;
  });
  return (
    `The config's tokens of these clients were revoked, rolled away from, expired or deleted, or are ` +
    `being rolled away from, and an import never brings a retired token back nor lifts an expiry: ` +
    `${clients.join(', ')}. Give each of them a new token in the config`
  );
}

/** The store's `importConfig`: makes the stored profiles and clients exactly those of `config`, in one transaction. */
export async function importConfig(
  config: SandboxConfig,
  clock: Clock,
  transaction: (
    work: (query: Query) => Promise<Result<ImportCounts, CredentialImportError>>,
  ) => Promise<Result<ImportCounts, CredentialImportError>>,
): Promise<Result<ImportCounts, CredentialImportError>> {
  const parsed = parseSandboxConfig(config);
  if (parsed.isErr()) return err({ code: 'invalid_config', message: parsed.error.message, retryable: false });
  const valid = parsed.value;
  const time = clockTime(clock);
  const clients = valid.clients.map((entry) => {
    const digest = tokenDigest(entry.token);
    return {
      id: clientIdForTokenDigest(digest),
      digest,
      values: [entry.partner_id, [...entry.profile_ids], entry.pci_dss_compliant],
    };
  });
  return transaction(async (query) => {
    await query(LOCK_ALL_CLIENTS, []);
    const digests = clients.map((client) => client.digest);
    const retired = await query<{ token_sha256: Buffer; retired: boolean; expires_at: string | null }>(
      RETIRED_CONFIG_TOKENS,
      [digests],
    );
    const refusal = retiredConfigMessage(retired.rows, time);
    if (refusal !== null) return err({ code: 'retired_token', message: refusal, retryable: false });
    const profileIds = valid.partners.flatMap((partner) => partner.profiles.map((profile) => profile.id));
    for (const partner of valid.partners) {
      for (const profile of partner.profiles) await query(PUT_PROFILE, [profile.id, partner.id, profile.name]);
    }
    // Tokens go to their config clients before anything is deleted: one a left-out client holds is moved, not retired.
    for (const client of clients) {
      const stored = await query(IMPORT_CLIENT, [client.id, ...client.values]);
      if (stored.rowCount !== 1) throw new Error('a validated client was not stored');
      await query(IMPORT_TOKEN, [client.digest, client.id, iso(time)]);
    }
    await query(KEEP_TOKENS, [digests]);
    await query(KEEP_CLIENTS, [clients.map((client) => client.id)]);
    await query(KEEP_PROFILES, [profileIds]);
    return ok({ profiles: profileIds.length, clients: clients.length });
  });
}
