import type { ChildProcess } from 'node:child_process';
import { ok } from 'neverthrow';
import type { CardData } from '../../../src/domain/card.js';
import type { CardVault } from '../../../src/ports/card-vault.js';

/*
 * A card vault shared by the processes of a test: the parent holds the cards (in its in-memory
 * vault) and workers reach it over the IPC channel. It stands in for the PCI DSS compliant
 * vault a production deployment with several instances needs: with a per-process vault, a
 * challenge answered in another process than the one that started it finds no card.
 */

export type VaultRequest =
  | {
      readonly type: 'vault.put';
      readonly requestId: number;
      readonly paymentId: string;
      readonly card: CardData;
      readonly expiresAt: number;
    }
  | { readonly type: 'vault.take'; readonly requestId: number; readonly paymentId: string };

export interface VaultReply {
  readonly type: 'vault.reply';
  readonly requestId: number;
  readonly card: CardData | null;
}

const isVaultReply = (message: unknown): message is VaultReply =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'vault.reply';

/** The worker's side: a `CardVault` that asks the parent. */
export function createIpcCardVault(): CardVault {
  let next = 0;
  const waiting = new Map<number, (card: CardData | null) => void>();
  process.on('message', (message: unknown) => {
    if (!isVaultReply(message)) return;
    waiting.get(message.requestId)?.(message.card);
    waiting.delete(message.requestId);
  });
  const ask = (request: VaultRequest) =>
    new Promise<CardData | null>((resolve) => {
      waiting.set(request.requestId, resolve);
      process.send?.(request);
    });
  return {
    async put(paymentId, card, expiresAt) {
      await ask({ type: 'vault.put', requestId: ++next, paymentId, card, expiresAt });
      return ok(undefined);
    },
    async take(paymentId) {
      return ok(await ask({ type: 'vault.take', requestId: ++next, paymentId }));
    },
  };
}

/** The parent's side: answers a worker's vault requests from `vault`. */
export function serveCardVault(child: ChildProcess, vault: CardVault): void {
  child.on('message', async (message: unknown) => {
    const request = message as VaultRequest;
    let card: CardData | null = null;
    if (request.type === 'vault.put') {
      await vault.put(request.paymentId, request.card, request.expiresAt);
    } else if (request.type === 'vault.take') {
      const taken = await vault.take(request.paymentId);
      card = taken.isOk() ? taken.value : null;
    } else {
      return;
    }
    child.send({ type: 'vault.reply', requestId: request.requestId, card } satisfies VaultReply);
  });
}
