import { err, ok, type Result } from 'neverthrow';
import type { Acquirer, AcquirerError, OperationOutcome, OperationRequest } from '../../src/ports/acquirer.js';
import type { PortResult } from '../../src/ports/port-result.js';

/** How the wrapper answers a capture, cancel or refund: `ok` passes it on to the acquirer beneath. */
export type MoneyFault = 'ok' | 'lost-before' | 'lost-after' | 'unknown-after' | 'declined';

export type MoneyKind = 'capture' | 'cancel' | 'refund';

const LOST: AcquirerError = {
  code: 'unavailable',
  message: 'The connection to the acquirer was lost',
  retryable: true,
};
const DECLINE_REASON = { capture: 'capture_declined', cancel: 'declined', refund: 'refund_declined' } as const;

/**
 * Injects faults into `acquirer`'s capture, cancel and refund, in place (the engine holds the same
 * object): one mode per kind, changed at will. Counts the calls per operation id (inquiries not
 * counted); `inquiriesDown` makes every operation inquiry unavailable.
 */
export function injectMoneyFaults(acquirer: Acquirer) {
  const faults: Record<MoneyKind, MoneyFault> = { capture: 'ok', cancel: 'ok', refund: 'ok' };
  const calls = new Map<string, number>();
  const state = { inquiriesDown: false };
  const real = {
    capture: acquirer.capture.bind(acquirer),
    cancel: acquirer.cancel.bind(acquirer),
    refund: acquirer.refund.bind(acquirer),
    inquireCapture: acquirer.inquireCapture.bind(acquirer),
    inquireCancel: acquirer.inquireCancel.bind(acquirer),
    inquireRefund: acquirer.inquireRefund.bind(acquirer),
  };

  async function faulty<R extends OperationRequest>(
    kind: MoneyKind,
    request: R,
    send: (request: R) => PortResult<OperationOutcome, AcquirerError>,
  ): Promise<Result<OperationOutcome, AcquirerError>> {
    calls.set(request.operationId, (calls.get(request.operationId) ?? 0) + 1);
    switch (faults[kind]) {
      case 'ok':
        return send(request);
      case 'lost-before':
        return err(LOST);
      case 'lost-after':
        await send(request);
        return err(LOST);
      case 'unknown-after':
        await send(request);
        return ok({ kind: 'unknown', detail: 'acquirer time-out' });
      case 'declined':
        return ok({ kind: 'declined', responseCode: '05', reason: DECLINE_REASON[kind] });
    }
  }

  acquirer.capture = (request) => faulty('capture', request, real.capture);
  acquirer.cancel = (request) => faulty('cancel', request, real.cancel);
  acquirer.refund = (request) => faulty('refund', request, real.refund);
  acquirer.inquireCapture = (query) => (state.inquiriesDown ? err(LOST) : real.inquireCapture(query));
  acquirer.inquireCancel = (query) => (state.inquiriesDown ? err(LOST) : real.inquireCancel(query));
  acquirer.inquireRefund = (query) => (state.inquiriesDown ? err(LOST) : real.inquireRefund(query));
  return { faults, calls, state };
}
