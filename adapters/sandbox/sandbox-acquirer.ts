import { randomInt } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { binOf, type CardScheme } from '../../src/domain/card.js';
import { failureReasonFromResponseCode } from '../../src/domain/failure-reason.js';
import type { ThreeDSOutcome } from '../../src/domain/three-ds.js';
import type {
  Acquirer,
  AcquirerError,
  AuthorizationOutcome,
  AuthorizationRequest,
  InquiryOutcome,
} from '../../src/ports/acquirer.js';
import { afterLatency } from './latency.js';
import { sandboxFees } from './sandbox-fees.js';
import { sandboxCardBehaviour } from './test-cards.js';

/**
 * A fault for the next `authorize` call:
 * - `unavailable`: the request never reaches the acquirer: nothing is recorded, the call fails.
 * - `answer_lost`: the acquirer decides and records the authorization, but the call fails.
 * - `hang`: the acquirer decides and records the authorization, and the call never settles.
 */
export type SandboxAcquirerFault = 'unavailable' | 'answer_lost' | 'hang';

/** Options of `createSandboxAcquirer`. */
export interface SandboxAcquirerOptions {
  /** Retrieval reference numbers (ISO 8583 data element 37); default 12 random digits. */
  readonly rrn?: () => string;
  /**
   * Delay before every answer, in milliseconds (simulated network latency). Without it (0, the
   * default) every answer is a plain `Result`, given at once.
   */
  readonly latencyMs?: number;
}

/** An authorization the simulated acquirer recorded: BIN, last four and scheme, never the number or CVC. */
export interface SandboxAuthorization {
  readonly paymentId: string;
  readonly profileId: string;
  readonly amount: number;
  readonly currency: string;
  readonly card: { readonly scheme: CardScheme; readonly bin: string; readonly last4: string };
  readonly threeDS: ThreeDSOutcome | null;
  /** What the acquirer decided, which `inquire` reports (even when the first answer was `unknown`). */
  readonly outcome: AuthorizationOutcome;
}

/** The sandbox acquirer: the port, plus what tests need to look at and to break it. */
export interface SandboxAcquirer extends Acquirer {
  /** How many times `authorize` was called for this payment (every call counts, failed ones too). */
  authorizeCalls(paymentId: string): number;
  /** The recorded authorizations, at most one per payment, in the order they were made. */
  authorizations(): readonly SandboxAuthorization[];
  /** Makes the next `authorize` call fail this way; calls queue up, one fault per call. */
  failNextAuthorize(fault: SandboxAcquirerFault): void;
  /** Makes the next `inquire` call fail with `unavailable`; calls queue up. */
  failNextInquire(): void;
}

const TIMEOUT_DETAIL =
  'Acquirer time-out: no answer from the issuer within 30 s; the outcome is unknown, inquire later';

function defaultRrn(): string {
  return randomInt(0, 1_000_000_000_000).toString().padStart(12, '0');
}

function unavailable(message: string): AcquirerError {
  return { code: 'unavailable', message, retryable: true };
}

/**
 * Simulated acquirer. Outcomes are decided by the card number (`SANDBOX_TEST_CARDS`); other numbers
 * are approved. It authorizes a payment at most once: a second `authorize` for the same payment
 * creates nothing and answers the recorded outcome (like an acquirer keyed by the payment id), and
 * is counted by `authorizeCalls`.
 */
export function createSandboxAcquirer(options: SandboxAcquirerOptions = {}): SandboxAcquirer {
  const nextRrn = options.rrn ?? defaultRrn;
  const latencyMs = options.latencyMs ?? 0;
  const records = new Map<string, SandboxAuthorization>();
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
    };
  }

  /** Records the authorization (once) and returns what the acquirer answers to this call. */
  function process(request: AuthorizationRequest): AuthorizationOutcome {
    const recorded = records.get(request.paymentId);
    if (recorded !== undefined) return recorded.outcome;

    const { card } = request;
    const outcome = decide(request);
    records.set(request.paymentId, {
      paymentId: request.paymentId,
      profileId: request.profileId,
      amount: request.amount,
      currency: request.currency,
      card: { scheme: card.scheme, bin: binOf(card.number), last4: card.number.slice(-4) },
      threeDS: request.threeDS,
      outcome,
    });
    return sandboxCardBehaviour(card.number).authorization.kind === 'timeout_then_approved'
      ? { kind: 'unknown', detail: TIMEOUT_DETAIL }
      : outcome;
  }

  return {
    authorize(request) {
      calls.set(request.paymentId, (calls.get(request.paymentId) ?? 0) + 1);
      const fault = authorizeFaults.shift();
      // Decide before the simulated latency, so that concurrent calls see each other's record.
      let result: Result<AuthorizationOutcome, AcquirerError>;
      if (fault === 'unavailable') {
        result = err(unavailable('The acquirer could not be reached'));
      } else {
        const answer = process(request);
        if (fault === 'hang') return new Promise<never>(() => {});
        result = fault === 'answer_lost' ? err(unavailable('The connection to the acquirer was lost')) : ok(answer);
      }
      return afterLatency(latencyMs, result);
    },

    inquire(request) {
      let result: Result<InquiryOutcome, AcquirerError>;
      if (inquireFaults > 0) {
        inquireFaults -= 1;
        result = err(unavailable('The acquirer could not be reached'));
      } else {
        result = ok(records.get(request.paymentId)?.outcome ?? { kind: 'not_found' });
      }
      return afterLatency(latencyMs, result);
    },

    authorizeCalls(paymentId) {
      return calls.get(paymentId) ?? 0;
    },

    authorizations() {
      return [...records.values()];
    },

    failNextAuthorize(fault) {
      authorizeFaults.push(fault);
    },

    failNextInquire() {
      inquireFaults += 1;
    },
  };
}
