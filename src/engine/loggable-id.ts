import { containsCardNumber } from '../domain/card-number.js';
import { isPaymentId } from './load-payment.js';

/**
 * An id a client sent (a path segment) as a log line may show it: a well-formed payment id, or a
 * short one that holds no card number, as it is; anything else as `[redacted]`. A client can put
 * anything in a path, a card number included, and ids are logged before they are known to exist.
 */
export function loggableId(id: string): string {
  return isPaymentId(id) || (id.length <= 64 && !containsCardNumber(id)) ? id : '[redacted]';
}
