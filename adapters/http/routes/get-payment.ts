import { err, ok } from 'neverthrow';
import { paymentUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { problemFromPaymentError } from '../problem-details.js';
import { readQuery } from '../query-params.js';
import { param, type RouteDefinition, type RouteHandler } from '../route-context.js';
import { checkPartner, checkProfile } from '../tenancy.js';

/**
 * `GET /v1/profiles/{profile_id}/payments/{payment_id}` and
 * `GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}` (the `_links.self`
 * path). Another partner in the path, or a payment of another profile: 404.
 */
export const getPaymentRoute: RouteHandler = async (context) => {
  const { client, deps } = context;
  const partnerId = context.params['partner_id'];
  if (partnerId !== undefined) {
    const partner = checkPartner(client, partnerId);
    if (partner.isErr()) return err(partner.error);
  }
  const profileId = param(context, 'profile_id');
  const access = checkProfile(client, profileId);
  if (access.isErr()) return err(access.error);
  const query = readQuery(context.url, []);
  if (query.isErr()) return err(query.error);

  // The client's partner on both paths: a payment filed under another partner (its profile
  // has since changed hands) is never shown.
  const found = await deps.engine.getPayment({
    paymentId: param(context, 'payment_id'),
    profileId,
    partnerId: client.partnerId,
    requestId: context.requestId,
  });
  if (found.isErr()) return err(problemFromPaymentError(found.error));
  return ok(jsonAnswer(200, paymentUnder(context.basePath, found.value)));
};

/** `GET /v1/profiles/{profile_id}/payments/{payment_id}`. */
export const getPayment: RouteDefinition = {
  method: 'GET',
  pattern: ['v1', 'profiles', ':profile_id', 'payments', ':payment_id'],
  name: 'GET /v1/profiles/{profile_id}/payments/{payment_id}',
  handler: getPaymentRoute,
};

/** `GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}`. */
export const getPartnerPayment: RouteDefinition = {
  method: 'GET',
  pattern: ['v1', 'partners', ':partner_id', 'profiles', ':profile_id', 'payments', ':payment_id'],
  name: 'GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}',
  handler: getPaymentRoute,
};
