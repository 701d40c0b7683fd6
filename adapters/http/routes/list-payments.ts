import { err, ok } from 'neverthrow';
import type { PaymentList } from '../../../src/engine/query-payments.js';
import { paymentListUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { pageLink, type Link } from '../operation-reads.js';
import { problemFromPaymentError } from '../problem-details.js';
import { parseLimit } from '../query-params.js';
import { type RouteDefinition, type RouteHandler } from '../route-context.js';
import { checkRoute } from '../tenancy.js';

/**
 * A page of the list as the API returns it: the engine's page and its `_links`, paths under the
 * API root: `self` (this page, with the `limit` and `after` the request gave) and, when more
 * payments follow, `next` (the same `limit`, `after` = `next_cursor`).
 */
export interface PaymentListResource extends PaymentList {
  readonly _links: { readonly self: Link; readonly next?: Link };
}

/**
 * `GET /v1/profiles/{profile_id}/payments?limit=&after=`: newest first, `limit` 1..100 (default
 * 20), `next_cursor` and `_links.next` for the next page; an `after` not in the list is a 400.
 */
const listPaymentsRoute: RouteHandler = async (context) => {
  const { client, deps } = context;
  const scope = checkRoute(context, ['limit', 'after']);
  if (scope.isErr()) return err(scope.error);
  const { profileId, query } = scope.value;
  const limit = parseLimit(query['limit']);
  if (limit.isErr()) return err(limit.error);
  const after = query['after'];

  const page = await deps.engine.listPayments({
    profileId,
    partnerId: client.partnerId,
    requestId: context.requestId,
    ...(limit.value !== undefined && { limit: limit.value }),
    ...(after !== undefined && { after }),
  });
  if (page.isErr()) return err(problemFromPaymentError(page.error));
  const list = paymentListUnder(context.basePath, page.value);
  const collection = `${context.basePath}/v1/profiles/${encodeURIComponent(profileId)}/payments`;
  const resource: PaymentListResource = {
    ...list,
    _links: {
      self: pageLink(collection, limit.value, after),
      ...(list.next_cursor !== undefined && { next: pageLink(collection, limit.value, list.next_cursor) }),
    },
  };
  return ok(jsonAnswer(200, resource));
};

/** `GET /v1/profiles/{profile_id}/payments`. */
export const listPayments: RouteDefinition = {
  method: 'GET',
  pattern: ['v1', 'profiles', ':profile_id', 'payments'],
  name: 'GET /v1/profiles/{profile_id}/payments',
  handler: listPaymentsRoute,
};
