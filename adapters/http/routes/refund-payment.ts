import { createOperationRoute } from '../create-operation-route.js';
import { inBothForms } from '../operation-reads.js';

/**
 * `POST …/payments/{payment_id}/refunds` `{ amount?, reference?, description? }`: 201 with the
 * refund and `Location` (docs/http-api.md, Captures). No body means all that is refundable.
 */
const refundPaymentRoute = createOperationRoute('refund', (context, fields, refundId) =>
  context.deps.engine.refundPayment({ ...fields, ...(refundId !== null && { refundId }) }),
);

/** `POST …/payments/{payment_id}/refunds`, in the profile and the partner form of the path. */
export const [refundPayment, refundPartnerPayment] = inBothForms('POST', ['refunds'], refundPaymentRoute);
