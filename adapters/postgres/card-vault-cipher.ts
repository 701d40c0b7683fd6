import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CardData } from '../../src/domain/card.js';

/** A key of a card vault's key ring: its id (stored beside what it encrypts) and 32 bytes. */
export interface CardVaultKey {
  readonly id: string;
  readonly key: Uint8Array;
}

/** Card data sealed with AES-256-GCM: what the vault stores. */
export interface SealedCard {
  readonly keyId: string;
  readonly iv: Buffer;
  readonly sealed: Buffer;
  readonly tag: Buffer;
}

/**
 * A checked copy of a key ring: at least one key, each 32 bytes with a unique id of 1 to 64
 * characters. A `RangeError` that names the id at fault, never key material.
 */
export function checkKeyRing(keys: readonly CardVaultKey[]): readonly CardVaultKey[] {
  if (!Array.isArray(keys) || keys.length === 0)
    throw new RangeError('card vault: the key ring needs at least one key');
  const ids = new Set<string>();
  return keys.map(({ id, key }, index) => {
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) {
      throw new RangeError(`card vault: key ${index} needs an id of 1 to 64 characters`);
    }
    if (ids.has(id)) throw new RangeError(`card vault: key id ${id} is given twice`);
    ids.add(id);
    if (!(key instanceof Uint8Array) || key.length !== 32) {
      throw new RangeError(`card vault: key ${id} must be 32 bytes (AES-256)`);
    }
    return { id, key: Uint8Array.from(key) };
  });
}

/** The additional authenticated data: the card belongs to this payment, under this key id. */
const aad = (paymentId: string, keyId: string) => Buffer.from(JSON.stringify([paymentId, keyId]), 'utf8');

/** Seals a card for a payment under `key` (a random 12-byte IV each time). */
export function sealCard(paymentId: string, card: CardData, key: CardVaultKey): SealedCard {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(paymentId, key.id));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(card), 'utf8'), cipher.final()]);
  return { keyId: key.id, iv, sealed, tag: cipher.getAuthTag() };
}

/** Opens a sealed card of a payment, or null when it does not authenticate (tampered, another key or payment). */
export function openCard(paymentId: string, sealed: SealedCard, key: CardVaultKey): CardData | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.iv);
    decipher.setAAD(aad(paymentId, key.id));
    decipher.setAuthTag(sealed.tag);
    const text = Buffer.concat([decipher.update(sealed.sealed), decipher.final()]).toString('utf8');
    return JSON.parse(text) as CardData;
  } catch {
    return null;
  }
}
