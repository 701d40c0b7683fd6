import { randomInt } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { binOf } from '../../src/domain/card.js';
import { failureReasonFromResponseCode } from '../../src/domain/failure-reason.js';
import type {
  Acquirer,
  AcquirerError,
  AuthorizationOutcome,
  AuthorizationRequest,
  InquiryOutcome,
} from '../../src/ports/acquirer.js';
import {
  createMemorySandboxAuthorizationStore,
  type SandboxAuthorization,
  type SandboxAuthorizationStore,
} from './authorization-store.js';
import { chain, type Eventually } from './chain.js';
import { sandboxFees } from './sandbox-fees.js';
import { createMemorySandboxOperationStore, type SandboxOperationStore } from './operation-store.js';
import { answerWith, unavailable, type SandboxFault } from './sandbox-fault.js';
import { createSandboxOperations, type SandboxOperations } from './sandbox-operations.js';
import { sandboxCardBehaviour } from './test-cards.js';

/** A fault for the next `authorize` call. */
export type SandboxAcquirerFault = SandboxFault;

/** Options of `createSandboxAcquirer`. */
export interface SandboxAcquirerOptions {
  /** Retrieval reference numbers (ISO 8583 data element 37); default 12 random digits. */
  readonly rrn?: () => string;
  /** The scheme trace ids of approvals (`networkTransactionId`); default 15 random digits. */
  readonly networkTransactionId?: () => string;
  /** Delay before every answer, in ms (simulated network latency); default 0: as soon as the store answers. */
  readonly latencyMs?: number;
  /** Where its decisions are kept for inquiries; default in memory (several instances share one). */
  readonly store?: SandboxAuthorizationStore;
  /** Where its captures, cancels and refunds are kept; default in memory (several instances share one). */
  readonly operationStore?: SandboxOperationStore;
}

/** The sandbox acquirer: the port, plus what tests need to look at and to break it. */
export interface SandboxAcquirer extends Acquirer, SandboxOperations {
  /** How many times `authorize` was called for this payment (every call counts, failed ones too). */
  authorizeCalls(paymentId: string): number;
  /** The authorizations this instance recorded, at most one per payment, in the order they were made. */
  authorizations(): readonly SandboxAuthorization[];
  /** Makes the next `authorize` call fail this way; calls queue up, one fault per call. */
  failNextAuthorize(fault: SandboxAcquirerFault): void;
  /** Makes the next `inquire` call fail with `unavailable`; calls queue up. */
  failNextInquire(): void;
}

const TIMEOUT_DETAIL =
  'Acquirer time-out: no answer from the issuer within 30 s; the outcome is unknown, inquire later';

/** A Visa-style transaction id: 15 digits. */
function defaultNetworkTransactionId(): string {
  return `${randomInt(1, 10)}${randomInt(0, 100_000_000).toString().padStart(8, '0')}${randomInt(0, 1_000_000)
    .toString()
    .padStart(6, '0')}`;
}

function defaultRrn(): string {
  return randomInt(0, 1_000_000_000_000).toString().padStart(12, '0');
}

/** The test card's capture and refund behaviour, kept on the authorization record when it has one. */
function operationsOf(number: string): Pick<SandboxAuthorization, 'operations'> {
  const { operations } = sandboxCardBehaviour(number);
  return operations === undefined ? {} : { operations };
}

/**
 * Simulated acquirer: outcomes by card number (`SANDBOX_TEST_CARDS`; others approved), each payment
 * authorized at most once (a second `authorize` answers the recorded outcome). Faults and counts are per instance.
 */
export function createSandboxAcquirer(options: SandboxAcquirerOptions = {}): SandboxAcquirer {
  const nextRrn = options.rrn ?? defaultRrn;
  const nextNetworkTransactionId = options.networkTransactionId ?? defaultNetworkTransactionId;
  const latencyMs = options.latencyMs ?? 0;
  const store = options.store ?? createMemorySandboxAuthorizationStore();
  const recorded: SandboxAuthorization[] = [];
  const calls = new Map<string, number>();
  const authorizeFaults: SandboxAcquirerFault[] = [];
  let inquireFaults = 0;

  function decide(request: AuthorizationRequest): AuthorizationOutcome {
    const behaviour = sandboxCardBehaviour(request.card.number);
    if (behaviour.authorization.kind === 'declined') {
      const { responseCode } = behaviour.authorization;
      return { kind: 'declined', responseCode, reason: failureReasonFromResponseCode(responseCode) };
    }
    return {
      kind: 'approved',
      rrn: nextRrn(),
      responseCode: '00',
      fees: sandboxFees(request.amount, { type: behaviour.cardType, region: behaviour.region }),
      card: { type: behaviour.cardType, region: behaviour.region, issuingCountry: behaviour.issuingCountry },
      networkTransactionId: nextNetworkTransactionId(),
    };
  }

  /** Records the authorization (once: the first record kept wins) and returns what this call answers. */
  function process(request: AuthorizationRequest): Eventually<Result<AuthorizationOutcome, AcquirerError>> {
    const { card } = request;
    return chain(store.find(request.paymentId), (found) => {
      if (found.isErr()) return err(unavailable(`The acquirer could not look the payment up: ${found.error.message}`));
      if (found.value !== null) return ok(found.value.outcome);
      const record: SandboxAuthorization = {
        paymentId: request.paymentId,
        profileId: request.profileId,
        amount: request.amount,
        currency: request.currency,
        captureMethod: request.captureMethod,
        card: { scheme: card.scheme, bin: binOf(card.number), last4: card.number.slice(-4) },
        threeDS: request.threeDS,
        authentication:
          request.authentication === null
            ? null
            : {
                authenticationValueReceived: request.authentication.authenticationValue !== null,
                dsTransactionId: request.authentication.dsTransactionId,
                protocolVersion: request.authentication.protocolVersion,
              },
        ...operationsOf(card.number),
        outcome: decide(request),
      };
      return chain(store.keep(record), (kept) => {
        if (kept.isErr()) {
          return err(unavailable(`The acquirer could not record the authorization: ${kept.error.message}`));
        }
        // Another call (on another instance) recorded it first: its outcome is the one.
        if (!kept.value.created) return ok(kept.value.record.outcome);
        recorded.push(record);
        return ok(
          sandboxCardBehaviour(card.number).authorization.kind === 'timeout_then_approved'
            ? { kind: 'unknown', detail: TIMEOUT_DETAIL }
            : record.outcome,
        );
      });
    });
  }

  return {
    ...createSandboxOperations({
      authorizations: store,
      operations: options.operationStore ?? createMemorySandboxOperationStore(),
      reference: nextRrn,
      latencyMs,
    }),

    authorize(request) {
      calls.set(request.paymentId, (calls.get(request.paymentId) ?? 0) + 1);
      return answerWith(authorizeFaults.shift(), latencyMs, () => process(request));
    },

    inquire(request) {
      const fault = inquireFaults > 0 ? 'unavailable' : undefined;
      if (fault !== undefined) inquireFaults -= 1;
      return answerWith(fault, latencyMs, () =>
        chain(store.find(request.paymentId), (found): Result<InquiryOutcome, AcquirerError> =>
          found.isErr()
            ? err(unavailable(`The acquirer could not look the payment up: ${found.error.message}`))
            : ok(found.value?.outcome ?? { kind: 'not_found' }),
        ),
      );
    },

    authorizeCalls(paymentId) {
      return calls.get(paymentId) ?? 0;
    },

    authorizations() {
      return [...recorded];
    },

    failNextAuthorize(fault) {
      authorizeFaults.push(fault);
    },

    failNextInquire() {
      inquireFaults += 1;
    },
  };
}
