import type { Acquirer } from '../../src/ports/acquirer.js';

/** The capture, cancel and refund methods of an acquirer, with their inquiries. */
export type MoneyOperationMethods = Pick<
  Acquirer,
  'capture' | 'inquireCapture' | 'cancel' | 'inquireCancel' | 'refund' | 'inquireRefund'
>;

/** `acquirer`'s capture, cancel and refund methods, passed on: for test acquirers that only wrap `authorize`. */
export function moneyOperationsOf(acquirer: Acquirer): MoneyOperationMethods {
  return {
    capture: (request) => acquirer.capture(request),
    inquireCapture: (request) => acquirer.inquireCapture(request),
    cancel: (request) => acquirer.cancel(request),
    inquireCancel: (request) => acquirer.inquireCancel(request),
    refund: (request) => acquirer.refund(request),
    inquireRefund: (request) => acquirer.inquireRefund(request),
  };
}
