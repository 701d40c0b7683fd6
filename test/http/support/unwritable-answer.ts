import { ok } from 'neverthrow';
import type { HttpAnswer } from '../../../adapters/http/http-answer.js';
import type { IdempotencyStore } from '../../../src/ports/idempotency-store.js';

/** An answer node refuses to write: a control character in a header value (ERR_INVALID_CHAR). */
export const UNWRITABLE: HttpAnswer = {
  status: 201,
  headers: {
    'content-type': 'application/json',
    'x-request-note': 'fine',
    location: '/v1/partners/p/profiles/shop\u0001eu/payments/payment_1',
  },
  body: '{"id":"payment_1"}',
};

/** An idempotency store that replays the unwritable answer for every key (as one kept from before might). */
export const replayingUnwritable: IdempotencyStore = {
  begin: () => ok({ kind: 'completed', response: UNWRITABLE }),
  complete: () => ok(undefined),
  release: () => ok(undefined),
  purgeExpired: () => ok(0),
};
