import { getOperationRoute, inBothForms } from '../operation-reads.js';

/** `GET …/payments/{payment_id}/captures/{capture_id}`, in the profile and the partner form of the path. */
export const [getCapture, getPartnerCapture] = inBothForms(
  'GET',
  ['captures', ':capture_id'],
  getOperationRoute('capture'),
);
