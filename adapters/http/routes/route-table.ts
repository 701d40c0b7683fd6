import type { RouteDefinition } from '../route-context.js';
import { cancelPartnerPayment, cancelPayment } from './cancel-payment.js';
import { capturePartnerPayment, capturePayment } from './capture-payment.js';
import { createPayment } from './create-payment.js';
import { getCapture, getPartnerCapture } from './get-capture.js';
import { getPartnerPayment, getPayment } from './get-payment.js';
import { getProfile } from './get-profile.js';
import { getPartnerRefund, getRefund } from './get-refund.js';
import { listCaptures, listPartnerCaptures } from './list-captures.js';
import { listPayments } from './list-payments.js';
import { listPartnerRefunds, listRefunds } from './list-refunds.js';
import { refundPartnerPayment, refundPayment } from './refund-payment.js';

/**
 * Every endpoint of the v1 API (docs/http-api.md, Endpoints), in the order the app registers
 * them. A new endpoint is a file in this folder exporting its `RouteDefinition`, and one line here.
 */
export const ROUTES: readonly RouteDefinition[] = [
  createPayment,
  listPayments,
  getPayment,
  getPartnerPayment,
  getProfile,
  capturePayment,
  capturePartnerPayment,
  listCaptures,
  listPartnerCaptures,
  getCapture,
  getPartnerCapture,
  cancelPayment,
  cancelPartnerPayment,
  refundPayment,
  refundPartnerPayment,
  listRefunds,
  listPartnerRefunds,
  getRefund,
  getPartnerRefund,
];
