import type { RouteDefinition } from '../route-context.js';
import { createPayment } from './create-payment.js';
import { getPartnerPayment, getPayment } from './get-payment.js';
import { getProfile } from './get-profile.js';
import { listPayments } from './list-payments.js';

/**
 * Every endpoint of the v1 API (decisions.md section 2), in the order the app registers them. A
 * new endpoint is a file in this folder exporting its `RouteDefinition`, and one line here.
 */
export const ROUTES: readonly RouteDefinition[] = [
  createPayment,
  listPayments,
  getPayment,
  getPartnerPayment,
  getProfile,
];
