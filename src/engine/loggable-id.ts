import { containsCardNumber } from '../domain/card-number.js';
import { isPaymentId } from './load-payment.js';

/**
 * The longest request id a log line shows as it is (a command's `requestId`): the longest
 * `Request-Id` the HTTP API sends. Longer ones are logged as `[redacted]`.
 */
export const MAX_LOGGED_REQUEST_ID_LENGTH = 200;

/**
 * An id a client sent (a path segment) as a log line may show it: a well-formed payment id, or a
 * short one (`maxLength`, default 64 characters) that holds no card number, as it is; anything
 * else as `[redacted]`. A client can put anything in a path, a card number included, and ids are
 * logged before they are known to exist.
 */
export function loggableId(id: string, maxLength = 64): string {
  return isPaymentId(id) || (id.length <= maxLength && !containsCardNumber(id)) ? id : '[redacted]';
}
