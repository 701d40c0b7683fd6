import { err, ok } from 'neverthrow';
import { paymentListUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { problemFromPaymentError } from '../problem-details.js';
import { parseLimit, readQuery } from '../query-params.js';
import { param, type RouteHandler } from '../route-context.js';
import { checkProfile } from '../tenancy.js';

/**
 * `GET /v1/profiles/{profile_id}/payments?limit=&after=`: newest first, `limit` 1..100 (default
 * 20); `next_cursor`, when present, is the `after` of the next page. An `after` that is not a
 * payment of this list is a 400 on `after` (the engine's `validation_failed`).
 */
export const listPaymentsRoute: RouteHandler = async (context) => {
  const { client, deps } = context;
  const profileId = param(context, 'profile_id');
  const access = checkProfile(client, profileId);
  if (access.isErr()) return err(access.error);
  const query = readQuery(context.url, ['limit', 'after']);
  if (query.isErr()) return err(query.error);
  const limit = parseLimit(query.value['limit']);
  if (limit.isErr()) return err(limit.error);
  const after = query.value['after'];

  const page = await deps.engine.listPayments({
    profileId,
    partnerId: client.partnerId,
    requestId: context.requestId,
    ...(limit.value !== undefined && { limit: limit.value }),
    ...(after !== undefined && { after }),
  });
  if (page.isErr()) return err(problemFromPaymentError(page.error));
  return ok(jsonAnswer(200, paymentListUnder(context.basePath, page.value)));
};
