import { getOperationRoute, inBothForms } from '../operation-reads.js';

/** `GET …/payments/{payment_id}/refunds/{refund_id}`, in the profile and the partner form of the path. */
export const [getRefund, getPartnerRefund] = inBothForms('GET', ['refunds', ':refund_id'], getOperationRoute('refund'));
