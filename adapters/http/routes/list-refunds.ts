import { inBothForms, listOperationsRoute } from '../operation-reads.js';

/** `GET …/payments/{payment_id}/refunds`, in the profile and the partner form of the path. */
export const [listRefunds, listPartnerRefunds] = inBothForms('GET', ['refunds'], listOperationsRoute('refund'));
