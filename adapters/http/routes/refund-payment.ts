import { inBothForms } from '../operation-reads.js';
import { createdOperation, operationPostRoute } from '../operation-request.js';

/**
 * `POST …/payments/{payment_id}/refunds` `{ amount?, reference?, description? }`: 201 with the
 * refund and `Location` (decisions.md section 8). No body means all that is refundable.
 */
const refundPaymentRoute = operationPostRoute({
  kind: 'refund',
  run: (context, target, body, refundId) =>
    context.deps.engine.refundPayment({ ...target, body, ...(refundId !== null && { refundId }) }),
  answer: createdOperation,
});

/** `POST …/payments/{payment_id}/refunds`, in the profile and the partner form of the path. */
export const [refundPayment, refundPartnerPayment] = inBothForms('POST', ['refunds'], refundPaymentRoute);
