/** Why a payment ended in `failed` (docs/state-machine.md), or a capture or refund. */
export const FAILURE_REASONS = Object.freeze([
  'authentication_refused',
  'authentication_rejected',
  'declined',
  'insufficient_funds',
  'expired_card',
  'invalid_card',
  'processing_error',
  'canceled',
  'capture_declined',
  'refund_declined',
] as const);

/** One of `FAILURE_REASONS`: a failed payment's `failure_reason`. */
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * Maps an ISO 8583 response code (data element 39) to a failure reason.
 * Acquirer adapters call this in the one place where they translate their vendor's codes.
 */
export function failureReasonFromResponseCode(code: string): FailureReason {
  switch (code) {
    case '51':
      return 'insufficient_funds';
    case '54':
    case '33':
      return 'expired_card';
    case '14':
    case '15':
    case '56':
      return 'invalid_card';
    case '96':
    case '91':
    case '06':
      return 'processing_error';
    default:
      return 'declined';
  }
}
