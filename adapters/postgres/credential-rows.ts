import { timingSafeEqual } from 'node:crypto';
import type { Client } from '../../src/ports/credential-store.js';
import type { ClientToken } from '../../src/ports/credential-provisioning.js';

/** A client row. */
export interface ClientRow {
  readonly id: string;
  readonly partner_id: string;
  readonly profile_ids: string[];
  readonly pci_dss_compliant: boolean;
}

/** A token row; times as epoch ms (`int8`, which `pg` hands over as text); `token_id` made by the database. */
export interface TokenRow {
  readonly token_sha256: Buffer;
  readonly token_id: string;
  readonly created_at: string;
  readonly expires_at: string | null;
}

/** The client of a row; `tokenId` when a token authenticated it. */
export const clientOf = (row: ClientRow, tokenId?: string): Client =>
  Object.freeze({
    id: row.id,
    partnerId: row.partner_id,
    profileIds: Object.freeze([...row.profile_ids]),
    pciDssCompliant: row.pci_dss_compliant,
    ...(tokenId !== undefined && { tokenId }),
  });

export const timeOf = (value: string | null): number | null => (value === null ? null : Number(value));

export const listed = (row: TokenRow): ClientToken =>
  Object.freeze({ tokenId: row.token_id, createdAt: Number(row.created_at), expiresAt: timeOf(row.expires_at) });

export const iso = (time: number): string => new Date(time).toISOString();

/** Whether a stored digest is `digest`, compared in constant time. */
export const sameDigest = (stored: Buffer, digest: Buffer): boolean =>
  stored.length === digest.length && timingSafeEqual(stored, digest);
