import type { RouteDefinition } from '../route-context.js';
import { cancelPartnerPayment, cancelPayment } from './cancel-payment.js';
import { CAPTURE_ROUTES, REFUND_ROUTES } from './captures-and-refunds.js';
import { createPayment } from './create-payment.js';
import { getPartnerPayment, getPayment } from './get-payment.js';
import { getProfile } from './get-profile.js';
import { listPayments } from './list-payments.js';

/**
 * Every endpoint of the v1 API (docs/http-api.md, Endpoints), in the order the app registers
 * them. A new endpoint is a file in this folder exporting its `RouteDefinition` (or a list), and one line here.
 */
export const ROUTES: readonly RouteDefinition[] = [
  createPayment,
  listPayments,
  getPayment,
  getPartnerPayment,
  getProfile,
  ...CAPTURE_ROUTES,
  cancelPayment,
  cancelPartnerPayment,
  ...REFUND_ROUTES,
];
