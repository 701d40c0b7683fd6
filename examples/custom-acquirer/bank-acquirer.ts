import { err, ok, type Result } from 'neverthrow';
import {
  failureReasonFromResponseCode,
  type Acquirer,
  type AcquirerError,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type OperationInquiryOutcome,
  type OperationOutcome,
  type OperationRequest,
} from 'paystate';
import {
  BankTimeoutError,
  BankUnreachableError,
  type BankReply,
  type ChargeRequest,
  type FakeBank,
  type FollowUpReply,
  type FollowUpRequest,
} from './fake-bank.js';

/**
 * The bank's reason codes as ISO 8583 response codes (data element 39), the vocabulary paystate's
 * `failureReasonFromResponseCode` speaks. The one place where the bank's codes are translated.
 */
const ISO_RESPONSE_CODES: Readonly<Record<string, string>> = {
  A000: '00', // approved
  R051: '51', // insufficient funds
  R054: '54', // expired card
  R005: '05', // do not honour
  R014: '14', // invalid card number
  E096: '96', // system malfunction
};

/** The bank's reply as paystate's authorization outcome. */
function toOutcome(reply: BankReply): AuthorizationOutcome {
  const responseCode = ISO_RESPONSE_CODES[reply.reasonCode] ?? '05';
  switch (reply.result) {
    case 'AUTHORISED': {
      const { authorisationId, fees, card, schemeTraceId } = reply;
      // paystate checks every answer (docs/ports.md): an approval needs a reference, fees and card
      // details. Without them it cannot be recorded, so say that the outcome is not known here.
      if (authorisationId === undefined || fees === undefined || card === undefined) {
        return { kind: 'unknown', detail: 'The bank authorised without a reference, fees or card details' };
      }
      return {
        kind: 'approved',
        rrn: authorisationId,
        responseCode,
        fees: { interchange: fees.interchangeMinor, assesment: fees.schemeMinor },
        card: {
          type: card.category === 'CORPORATE' ? 'commercial' : 'consumer',
          region: card.region === 'DOMESTIC' ? 'domestic' : card.region === 'EEA' ? 'intra' : 'inter',
          issuingCountry: card.issuerCountry,
        },
        // Kept on paystate's record for later merchant-initiated payments.
        ...(schemeTraceId !== undefined && { networkTransactionId: schemeTraceId }),
      };
    }
    case 'REFUSED':
      return { kind: 'declined', responseCode, reason: failureReasonFromResponseCode(responseCode) };
    case 'ERROR':
      // The bank says it failed to decide: the charge may or may not stand. paystate inquires later.
      return { kind: 'unknown', detail: `The bank answered ${reply.reasonCode}` };
  }
}

/** A failure of the call itself. Only our own words: an SDK's message may quote the request. */
function toError(error: unknown): AcquirerError {
  if (error instanceof BankUnreachableError) {
    return { code: 'unavailable', message: 'The bank could not be reached', retryable: true };
  }
  if (error instanceof BankTimeoutError) {
    return { code: 'unavailable', message: 'The bank did not answer in time', retryable: true };
  }
  return { code: 'unavailable', message: 'The call to the bank failed', retryable: true };
}

function toChargeRequest(request: AuthorizationRequest): ChargeRequest {
  const [year = '0', month = '0'] = request.card.expiration.split('-');
  const eci = request.threeDS?.eci ?? null;
  // decisions.md section 9: the CAVV goes to the bank in this call and nowhere else.
  const authentication = request.authentication;
  return {
    merchantReference: request.paymentId, // one payment, one charge: the bank de-duplicates on it
    amountMinor: request.amount,
    currency: request.currency,
    card: {
      pan: request.card.number,
      cvv: request.card.cvc,
      expMonth: Number(month),
      expYear: Number(year),
      holder: request.card.holderName,
    },
    ...(eci !== null && {
      authentication: {
        eci,
        cavv: authentication?.authenticationValue ?? null,
        dsTransactionId: authentication?.dsTransactionId ?? null,
        threeDSVersion: authentication?.protocolVersion ?? null,
      },
    }),
  };
}

/**
 * paystate's `Acquirer` port on the bank's SDK. It keeps nothing itself: the card data goes
 * into the one charge call and is gone; the bank's reference (the payment id) is what makes
 * `authorize` at-most-once and `inquire` possible. It never throws: every failure is a value.
 */
export function createBankAcquirer(bank: FakeBank): Acquirer {
  return {
    async authorize(request) {
      try {
        return ok(toOutcome(await bank.charge(toChargeRequest(request))));
      } catch (error) {
        return err(toError(error));
      }
    },
    async inquire({ paymentId }) {
      try {
        const reply = await bank.findCharge(paymentId);
        return ok(reply === null ? { kind: 'not_found' } : toOutcome(reply));
      } catch (error) {
        return err(toError(error));
      }
    },
    capture: (request) => followUp(bank, 'CAPTURE', request),
    inquireCapture: ({ operationId }) => findFollowUp(bank, operationId),
    cancel: (request) => followUp(bank, 'VOID', request),
    inquireCancel: ({ operationId }) => findFollowUp(bank, operationId),
    refund: (request) => followUp(bank, 'REFUND', request),
    inquireRefund: ({ operationId }) => findFollowUp(bank, operationId),
  };
}

/** The bank's follow-up reply as paystate's operation outcome. */
function toOperationOutcome(reply: FollowUpReply): OperationOutcome {
  const { type } = reply;
  if (reply.result === 'DONE' && reply.followUpId !== undefined)
    return { kind: 'succeeded', reference: reply.followUpId };
  if (reply.result === 'DONE') return { kind: 'unknown', detail: 'The bank acted without a reference' };
  const responseCode = reply.reasonCode === 'R013' ? '13' : '12';
  const reason = type === 'CAPTURE' ? 'capture_declined' : type === 'REFUND' ? 'refund_declined' : 'declined';
  return { kind: 'declined', responseCode, reason };
}

/** A capture, void or refund: the operation id is the bank's reference, so each is done once. */
async function followUp(
  bank: FakeBank,
  type: FollowUpRequest['type'],
  request: OperationRequest,
): Promise<Result<OperationOutcome, AcquirerError>> {
  try {
    const reply = await bank.followUp({
      merchantReference: request.operationId,
      chargeReference: request.paymentId,
      type,
      amountMinor: request.amount,
      currency: request.currency,
    });
    return ok(toOperationOutcome(reply));
  } catch (error) {
    return err(toError(error));
  }
}

async function findFollowUp(
  bank: FakeBank,
  operationId: string,
): Promise<Result<OperationInquiryOutcome, AcquirerError>> {
  try {
    const found = await bank.findFollowUp(operationId);
    if (found === null) return ok({ kind: 'not_found' });
    return ok(toOperationOutcome(found));
  } catch (error) {
    return err(toError(error));
  }
}
