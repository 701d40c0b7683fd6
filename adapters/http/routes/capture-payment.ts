import { inBothForms } from '../operation-reads.js';
import { createdOperation, operationPostRoute } from '../operation-request.js';

/**
 * `POST …/payments/{payment_id}/captures` `{ amount?, final? }`: 201 with the capture and `Location`
 * (decisions.md section 8). No body means all that is capturable, finally.
 */
const capturePaymentRoute = operationPostRoute({
  kind: 'capture',
  run: (context, target, body, captureId) =>
    context.deps.engine.capturePayment({ ...target, body, ...(captureId !== null && { captureId }) }),
  answer: createdOperation,
});

/** `POST …/payments/{payment_id}/captures`, in the profile and the partner form of the path. */
export const [capturePayment, capturePartnerPayment] = inBothForms('POST', ['captures'], capturePaymentRoute);
