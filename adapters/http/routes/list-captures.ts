import { inBothForms, listOperationsRoute } from '../operation-reads.js';

/** `GET …/payments/{payment_id}/captures`, in the profile and the partner form of the path. */
export const [listCaptures, listPartnerCaptures] = inBothForms('GET', ['captures'], listOperationsRoute('capture'));
