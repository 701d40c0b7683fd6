/**
 * A stand-in for an acquiring bank's SDK, with its own vocabulary: `AUTHORISED`/`REFUSED`/`ERROR`
 * results, four-character reason codes, exceptions for network failures. The adapter in
 * `bank-acquirer.ts` translates all of it into paystate's acquirer port. In test mode the bank
 * decides by the last two digits of the amount, as many acquirers' test environments do:
 * `…51` insufficient funds, `…54` expired card, `…05` do not honour, `…14` invalid card number,
 * `…96` authorised but the reply is lost (a time-out); anything else is authorised.
 */

export interface ChargeRequest {
  /** The merchant's reference: the bank charges each reference at most once. */
  readonly merchantReference: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly card: {
    readonly pan: string;
    readonly cvv: string;
    readonly expMonth: number;
    readonly expYear: number;
    readonly holder: string;
  };
  readonly authentication?: {
    readonly eci: string;
    readonly cavv: string | null;
    readonly dsTransactionId: string | null;
    readonly threeDSVersion: string | null;
  };
}

export type BankResult = 'AUTHORISED' | 'REFUSED' | 'ERROR';

export interface BankReply {
  readonly result: BankResult;
  /** `A000` authorised; `R051`, `R054`, `R005`, `R014` refused; `E096` system error. */
  readonly reasonCode: string;
  readonly authorisationId?: string;
  /** The card scheme's trace id of an authorisation. */
  readonly schemeTraceId?: string;
  readonly fees?: { readonly interchangeMinor: number; readonly schemeMinor: number };
  readonly card?: {
    readonly category: 'CONSUMER' | 'CORPORATE';
    readonly region: 'DOMESTIC' | 'EEA' | 'INTERNATIONAL';
    readonly issuerCountry: string;
  };
}

/** What the bank keeps about a charge: masked card only. */
export interface LedgerEntry {
  readonly merchantReference: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly maskedPan: string;
  readonly reply: BankReply;
}

/** Thrown when a request never reached the bank. */
export class BankUnreachableError extends Error {
  override readonly name = 'BankUnreachableError';
}

/** Thrown when the bank's reply did not arrive in time: the charge may have happened. */
export class BankTimeoutError extends Error {
  override readonly name = 'BankTimeoutError';
}

/** A follow-up on a charge: capture (of a reservation), void (release) or refund. */
export interface FollowUpRequest {
  /** The merchant's reference of this follow-up: the bank acts on each at most once. */
  readonly merchantReference: string;
  /** The charge it follows up. */
  readonly chargeReference: string;
  readonly type: 'CAPTURE' | 'VOID' | 'REFUND';
  readonly amountMinor: number;
  readonly currency: string;
}

export interface FollowUpReply {
  readonly type: FollowUpRequest['type'];
  readonly result: 'DONE' | 'REFUSED';
  /** `A000` done; `R013` amount above what the charge allows; `R012` no such charge. */
  readonly reasonCode: string;
  readonly followUpId?: string;
}

export interface FakeBank {
  /** Acts on a follow-up, or answers the recorded reply when the reference was seen before. */
  followUp(request: FollowUpRequest): Promise<FollowUpReply>;
  /** The reply recorded for a follow-up reference, or null when the bank never received it. */
  findFollowUp(merchantReference: string): Promise<FollowUpReply | null>;
  /** Charges a card, or answers the recorded reply when the reference was charged before. */
  charge(request: ChargeRequest): Promise<BankReply>;
  /** The reply recorded for a reference, or null when the bank never charged it. */
  findCharge(merchantReference: string): Promise<BankReply | null>;
  /** Everything the bank keeps, oldest first. */
  ledger(): readonly LedgerEntry[];
  /** The next call fails before it reaches the bank (nothing is recorded). */
  failNextCall(): void;
  /** The next charge is recorded, but its reply is lost. */
  loseNextReply(): void;
}

const REFUSALS: Readonly<Record<string, string>> = { '51': 'R051', '54': 'R054', '05': 'R005', '14': 'R014' };

export function createFakeBank(): FakeBank {
  const charges = new Map<string, LedgerEntry>();
  let unreachable = 0;
  let lostReplies = 0;
  let sequence = 0;
  const followUps = new Map<string, FollowUpRequest & { readonly reply: FollowUpReply }>();

  function unreachableCall(): void {
    if (unreachable > 0) {
      unreachable -= 1;
      throw new BankUnreachableError('connect ECONNREFUSED bank.example:443');
    }
  }

  /** Each type may total at most the charged amount (the bank keeps it simple). */
  function decideFollowUp(request: FollowUpRequest): FollowUpReply {
    const charge = charges.get(request.chargeReference);
    if (charge?.reply.result !== 'AUTHORISED' || charge.currency !== request.currency) {
      return { type: request.type, result: 'REFUSED', reasonCode: 'R012' };
    }
    const done = [...followUps.values()]
      .filter(
        (f) => f.chargeReference === request.chargeReference && f.type === request.type && f.reply.result === 'DONE',
      )
      .reduce((total, f) => total + f.amountMinor, 0);
    if (request.amountMinor <= 0 || done + request.amountMinor > charge.amountMinor) {
      return { type: request.type, result: 'REFUSED', reasonCode: 'R013' };
    }
    sequence += 1;
    return {
      type: request.type,
      result: 'DONE',
      reasonCode: 'A000',
      followUpId: `${request.type}-${String(sequence).padStart(8, '0')}`,
    };
  }

  function decide(request: ChargeRequest): BankReply {
    const lastTwo = String(request.amountMinor % 100).padStart(2, '0');
    const refusal = REFUSALS[lastTwo];
    if (refusal !== undefined) return { result: 'REFUSED', reasonCode: refusal };
    sequence += 1;
    return {
      result: 'AUTHORISED',
      reasonCode: 'A000',
      authorisationId: `AUTH${String(sequence).padStart(8, '0')}`,
      schemeTraceId: `${String(sequence).padStart(15, '3')}`,
      fees: { interchangeMinor: Math.round(request.amountMinor * 0.003), schemeMinor: 2 },
      card: { category: 'CONSUMER', region: 'EEA', issuerCountry: 'NL' },
    };
  }

  return {
    async charge(request) {
      if (unreachable > 0) {
        unreachable -= 1;
        throw new BankUnreachableError('connect ECONNREFUSED bank.example:443');
      }
      const known = charges.get(request.merchantReference);
      if (known !== undefined) return known.reply;
      const reply = decide(request);
      charges.set(request.merchantReference, {
        merchantReference: request.merchantReference,
        amountMinor: request.amountMinor,
        currency: request.currency,
        maskedPan: `${request.card.pan.slice(0, 6)}******${request.card.pan.slice(-4)}`,
        reply,
      });
      if (lostReplies > 0 || request.amountMinor % 100 === 96) {
        lostReplies = Math.max(0, lostReplies - 1);
        throw new BankTimeoutError('No reply from the bank within 30 s');
      }
      return reply;
    },
    async findCharge(merchantReference) {
      if (unreachable > 0) {
        unreachable -= 1;
        throw new BankUnreachableError('connect ECONNREFUSED bank.example:443');
      }
      return charges.get(merchantReference)?.reply ?? null;
    },
    async followUp(request) {
      unreachableCall();
      const known = followUps.get(request.merchantReference);
      if (known !== undefined) return known.reply;
      const reply = decideFollowUp(request);
      followUps.set(request.merchantReference, { ...request, reply });
      if (lostReplies > 0) {
        lostReplies -= 1;
        throw new BankTimeoutError('No reply from the bank within 30 s');
      }
      return reply;
    },
    async findFollowUp(merchantReference) {
      unreachableCall();
      return followUps.get(merchantReference)?.reply ?? null;
    },
    ledger: () => [...charges.values()],
    failNextCall() {
      unreachable += 1;
    },
    loseNextReply() {
      lostReplies += 1;
    },
  };
}
