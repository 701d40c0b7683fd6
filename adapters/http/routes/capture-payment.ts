import { createOperationRoute } from '../create-operation-route.js';
import { inBothForms } from '../operation-reads.js';

/**
 * `POST …/payments/{payment_id}/captures` `{ amount?, final? }`: 201 with the capture and `Location`
 * (docs/http-api.md, Captures). No body means all that is capturable, finally.
 */
const capturePaymentRoute = createOperationRoute('capture', (context, fields, captureId) =>
  context.deps.engine.capturePayment({ ...fields, ...(captureId !== null && { captureId }) }),
);

/** `POST …/payments/{payment_id}/captures`, in the profile and the partner form of the path. */
export const [capturePayment, capturePartnerPayment] = inBothForms('POST', ['captures'], capturePaymentRoute);
