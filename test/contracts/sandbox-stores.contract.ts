import { describe, expect, it } from 'vitest';
import type {
  SandboxAuthorization,
  SandboxAuthorizationStore,
  SandboxChallenge,
  SandboxChallengeStore,
  SandboxOperation,
  SandboxOperationDecision,
  SandboxOperationStore,
} from '../../adapters/sandbox/index.js';

/** A pair of stores, and another view of the same state (another instance), when there is one. */
export interface SandboxStoresHarness {
  readonly authorizations: SandboxAuthorizationStore;
  readonly challenges: SandboxChallengeStore;
  /** The same stores as seen by a second instance (another pool on the same database), or themselves. */
  readonly other: { readonly authorizations: SandboxAuthorizationStore; readonly challenges: SandboxChallengeStore };
}

let sequence = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${(sequence += 1)}`;

function authorization(paymentId: string, rrn: string): SandboxAuthorization {
  return {
    paymentId,
    profileId: 'profile_a',
    amount: 1999,
    currency: 'EUR',
    card: { scheme: 'visa', bin: '42424242', last4: '4242' },
    threeDS: null,
    authentication: null,
    outcome: {
      kind: 'approved',
      rrn,
      responseCode: '00',
      fees: { interchange: 4, assesment: 2 },
      card: { type: 'consumer', region: 'domestic', issuingCountry: 'NL' },
    },
  };
}

function challenge(paymentId: string, transactionId: string): SandboxChallenge {
  return {
    paymentId,
    transactionId,
    reason: 'challenge_required',
    amount: 1999,
    currency: 'EUR',
    scheme: 'visa',
    last4: '3220',
    dsTransactionId: '2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7',
    protocolVersion: '2.2.0',
    status: 'pending',
  };
}

/** The rules every store of the simulated acquirer and issuer keeps (memory, Postgres). */
export function sandboxStoresContract(name: string, make: () => Promise<SandboxStoresHarness>): void {
  describe(`sandbox stores contract: ${name}`, () => {
    it('keeps the first authorization of a payment and answers it to every later keep', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const first = (await stores.authorizations.keep(authorization(paymentId, '000000000001')))._unsafeUnwrap();
      expect(first).toEqual({ record: authorization(paymentId, '000000000001'), created: true });
      const second = (await stores.other.authorizations.keep(authorization(paymentId, '000000000002')))._unsafeUnwrap();
      expect(second).toEqual({ record: authorization(paymentId, '000000000001'), created: false });
      expect((await stores.other.authorizations.find(paymentId))._unsafeUnwrap()).toEqual(
        authorization(paymentId, '000000000001'),
      );
      expect((await stores.authorizations.find(unique('payment')))._unsafeUnwrap()).toBeNull();
    });

    it('lets exactly one of many concurrent keeps create the record', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const kept = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? stores.authorizations : stores.other.authorizations).keep(
            authorization(paymentId, String(i).padStart(12, '0')),
          ),
        ),
      );
      const answers = kept.map((result) => result._unsafeUnwrap());
      expect(answers.filter((answer) => answer.created)).toHaveLength(1);
      const winner = answers.find((answer) => answer.created)?.record;
      for (const answer of answers) expect(answer.record).toEqual(winner);
    });

    it('serves a challenge to the other instance and lets the first answer win', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const transactionId = unique('tx');
      (await stores.challenges.keep(challenge(paymentId, transactionId)))._unsafeUnwrap();
      expect((await stores.other.challenges.find(transactionId))._unsafeUnwrap()).toEqual(
        challenge(paymentId, transactionId),
      );
      const resolved = (await stores.other.challenges.resolve(transactionId, 'authorised'))._unsafeUnwrap();
      expect(resolved).toEqual({ ...challenge(paymentId, transactionId), status: 'authorised' });
      const late = (await stores.challenges.resolve(transactionId, 'refused'))._unsafeUnwrap();
      expect(late?.status).toBe('authorised');
      expect((await stores.challenges.find(transactionId))._unsafeUnwrap()?.status).toBe('authorised');
      expect((await stores.challenges.resolve(unique('tx'), 'refused'))._unsafeUnwrap()).toBeNull();
      expect((await stores.challenges.find(unique('tx')))._unsafeUnwrap()).toBeNull();
    });

    it('gives concurrent answers to one challenge a single outcome', async () => {
      const stores = await make();
      const transactionId = unique('tx');
      (await stores.challenges.keep(challenge(unique('payment'), transactionId)))._unsafeUnwrap();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? stores.challenges : stores.other.challenges).resolve(
            transactionId,
            i % 3 === 0 ? 'refused' : 'authorised',
          ),
        ),
      );
      const statuses = new Set(answers.map((answer) => answer._unsafeUnwrap()?.status));
      expect(statuses.size).toBe(1);
      expect(['authorised', 'refused']).toContain([...statuses][0]);
    });
  });
}

/** A store of the simulated acquirer's operations, and the same state as a second instance sees it (or itself). */
export interface SandboxOperationStoreHarness {
  readonly operations: SandboxOperationStore;
  readonly other: SandboxOperationStore;
}

function refund(operationId: string, paymentId: string, amount: number, succeeded: boolean): SandboxOperation {
  return {
    operationId,
    kind: 'refund',
    paymentId,
    amount,
    currency: 'EUR',
    final: false,
    outcome: succeeded
      ? { kind: 'succeeded', reference: `ref-${operationId.slice(-20)}` }
      : { kind: 'declined', responseCode: '13', reason: 'refund_declined' },
  };
}

/** Refunds `amount` when the succeeded refunds so far leave room under `limit`; declines it otherwise. */
function refundWithin(limit: number, operationId: string, paymentId: string, amount: number): SandboxOperationDecision {
  return (history) => {
    const refunded = history
      .filter((op) => op.kind === 'refund' && op.outcome.kind === 'succeeded')
      .reduce((sum, op) => sum + op.amount, 0);
    return refund(operationId, paymentId, amount, refunded + amount <= limit);
  };
}

/** The rules every store of the simulated acquirer's captures, cancels and refunds keeps (memory, Postgres). */
export function sandboxOperationStoreContract(name: string, make: () => Promise<SandboxOperationStoreHarness>): void {
  describe(`sandbox operation store contract: ${name}`, () => {
    it('keeps the first decision of an operation id and answers it to every later keep, without deciding again', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const operationId = unique('refund');
      const first = (
        await stores.operations.keep(operationId, paymentId, () => refund(operationId, paymentId, 40, true))
      )._unsafeUnwrap();
      expect(first).toEqual({ record: refund(operationId, paymentId, 40, true), created: true });
      let decidedAgain = false;
      const second = (
        await stores.other.keep(operationId, paymentId, () => {
          decidedAgain = true;
          return refund(operationId, paymentId, 99, false);
        })
      )._unsafeUnwrap();
      expect(second).toEqual({ record: refund(operationId, paymentId, 40, true), created: false });
      expect(decidedAgain).toBe(false);
      expect((await stores.other.find(operationId))._unsafeUnwrap()).toEqual(refund(operationId, paymentId, 40, true));
      expect((await stores.operations.find(unique('refund')))._unsafeUnwrap()).toBeNull();
    });

    it("gives the decision the payment's own history, oldest first, declined ones included", async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const ids = [unique('refund'), unique('refund'), unique('refund')];
      (await stores.operations.keep(ids[0]!, paymentId, () => refund(ids[0]!, paymentId, 10, true)))._unsafeUnwrap();
      (await stores.other.keep(ids[1]!, paymentId, () => refund(ids[1]!, paymentId, 20, false)))._unsafeUnwrap();
      const elsewhere = unique('refund');
      const otherPayment = unique('payment');
      (
        await stores.operations.keep(elsewhere, otherPayment, () => refund(elsewhere, otherPayment, 30, true))
      )._unsafeUnwrap();
      let seen: readonly SandboxOperation[] = [];
      (
        await stores.operations.keep(ids[2]!, paymentId, (history) => {
          seen = history;
          return refund(ids[2]!, paymentId, 5, true);
        })
      )._unsafeUnwrap();
      expect(seen).toEqual([refund(ids[0]!, paymentId, 10, true), refund(ids[1]!, paymentId, 20, false)]);
    });

    it('lets concurrent operations on one payment decide one after the other: two refunds of 60 on 100, one succeeds', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const kept = await Promise.all(
        Array.from({ length: 8 }, (_, i) => {
          const operationId = unique('refund');
          return (i % 2 === 0 ? stores.operations : stores.other).keep(
            operationId,
            paymentId,
            refundWithin(100, operationId, paymentId, 60),
          );
        }),
      );
      const answers = kept.map((result) => result._unsafeUnwrap());
      expect(answers.every((answer) => answer.created)).toBe(true);
      expect(answers.filter((answer) => answer.record.outcome.kind === 'succeeded')).toHaveLength(1);
    });

    it('lets exactly one of many concurrent keeps of one operation id decide', async () => {
      const stores = await make();
      const paymentId = unique('payment');
      const operationId = unique('capture');
      const kept = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? stores.operations : stores.other).keep(operationId, paymentId, () =>
            refund(operationId, paymentId, 10 + i, true),
          ),
        ),
      );
      const answers = kept.map((result) => result._unsafeUnwrap());
      expect(answers.filter((answer) => answer.created)).toHaveLength(1);
      const winner = answers.find((answer) => answer.created)?.record;
      for (const answer of answers) expect(answer.record).toEqual(winner);
    });
  });
}
