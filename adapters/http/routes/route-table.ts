import type { RouteDefinition } from '../route-context.js';
import { createPaymentRoute } from './create-payment.js';
import { getPaymentRoute } from './get-payment.js';
import { getProfileRoute } from './get-profile.js';
import { listPaymentsRoute } from './list-payments.js';

/** Every endpoint of the v1 API (decisions.md section 2). */
export const ROUTES: readonly RouteDefinition[] = [
  {
    method: 'POST',
    pattern: ['v1', 'profiles', ':profile_id', 'payments'],
    name: 'POST /v1/profiles/{profile_id}/payments',
    handler: createPaymentRoute,
  },
  {
    method: 'GET',
    pattern: ['v1', 'profiles', ':profile_id', 'payments'],
    name: 'GET /v1/profiles/{profile_id}/payments',
    handler: listPaymentsRoute,
  },
  {
    method: 'GET',
    pattern: ['v1', 'profiles', ':profile_id', 'payments', ':payment_id'],
    name: 'GET /v1/profiles/{profile_id}/payments/{payment_id}',
    handler: getPaymentRoute,
  },
  {
    method: 'GET',
    pattern: ['v1', 'partners', ':partner_id', 'profiles', ':profile_id', 'payments', ':payment_id'],
    name: 'GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}',
    handler: getPaymentRoute,
  },
  {
    method: 'GET',
    pattern: ['v1', 'partners', ':partner_id', 'profiles', ':profile_id'],
    name: 'GET /v1/partners/{partner_id}/profiles/{profile_id}',
    handler: getProfileRoute,
  },
];
