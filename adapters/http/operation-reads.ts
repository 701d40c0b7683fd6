import { err, ok } from 'neverthrow';
import type { OperationKind, PublicOperation } from '../../src/domain/money-operation.js';
import type { OperationList } from '../../src/engine/query-operations.js';
import { operationUnder } from './base-path.js';
import { jsonAnswer } from './http-answer.js';
import { operationPath } from './operation-request.js';
import { problemFromPaymentError } from './problem-details.js';
import { parseLimit } from './query-params.js';
import { param, type RouteDefinition, type RouteHandler } from './route-context.js';

/** A link of a resource's `_links`. */
export type Link = { readonly href: string; readonly type: 'application/json' };

/** A page of captures or refunds as the API returns it: the engine's page and `_links` `self` and `next`. */
export interface OperationListResource extends OperationList {
  readonly _links: { readonly self: Link; readonly next?: Link };
}

/** The link to a page of a list at `collection`, with the `limit` and `after` of the request. */
export const pageLink = (collection: string, limit: number | undefined, after: string | undefined): Link => {
  const query = new URLSearchParams();
  if (limit !== undefined) query.set('limit', String(limit));
  if (after !== undefined) query.set('after', after);
  const search = query.toString();
  return { href: search === '' ? collection : `${collection}?${search}`, type: 'application/json' };
};

type ReadKind = Exclude<OperationKind, 'cancel'>;
const COLLECTION: Readonly<Record<ReadKind, string>> = { capture: 'captures', refund: 'refunds' };

/**
 * `GET …/payments/{payment_id}/captures` or `/refunds`: oldest first, `limit` 1..100 (default 20),
 * `after` the `next_cursor` of the previous page (anything else a 400 on `after`).
 */
export function listOperationsRoute(kind: ReadKind): RouteHandler {
  return async (context) => {
    const { deps } = context;
    const path = operationPath(context, ['limit', 'after']);
    if (path.isErr()) return err(path.error);
    const { query } = path.value;
    const limit = parseLimit(query['limit']);
    if (limit.isErr()) return err(limit.error);
    const after = query['after'];
    const read = {
      ...path.value.target,
      ...(limit.value !== undefined && { limit: limit.value }),
      ...(after !== undefined && { after }),
    };
    const page = await (kind === 'capture' ? deps.engine.listCaptures(read) : deps.engine.listRefunds(read));
    if (page.isErr()) return err(problemFromPaymentError(page.error));
    const collection = `${context.basePath}${path.value.paymentPath}/${COLLECTION[kind]}`;
    const next = page.value.next_cursor;
    const resource: OperationListResource = {
      items: page.value.items.map((item) => operationUnder(context.basePath, item)),
      ...(next !== undefined && { next_cursor: next }),
      _links: {
        self: pageLink(collection, limit.value, after),
        ...(next !== undefined && { next: pageLink(collection, limit.value, next) }),
      },
    };
    return ok(jsonAnswer(200, resource));
  };
}

/** `GET …/payments/{payment_id}/captures/{capture_id}` or `/refunds/{refund_id}`: another payment's is 404. */
export function getOperationRoute(kind: ReadKind): RouteHandler {
  return async (context) => {
    const { deps } = context;
    const path = operationPath(context, []);
    if (path.isErr()) return err(path.error);
    const read = { ...path.value.target, operationId: param(context, `${kind}_id`) };
    const found = await (kind === 'capture' ? deps.engine.getCapture(read) : deps.engine.getRefund(read));
    if (found.isErr()) return err(problemFromPaymentError(found.error));
    return ok(jsonAnswer(200, operationUnder(context.basePath, found.value satisfies PublicOperation)));
  };
}

/**
 * A route under `…/payments/{payment_id}` in both forms of the path, `/v1/profiles/{profile_id}/…`
 * and the partner form `/v1/partners/{partner_id}/profiles/{profile_id}/…` (where `_links` point).
 */
export function inBothForms(
  method: RouteDefinition['method'],
  tail: readonly string[],
  handler: RouteHandler,
): readonly [RouteDefinition, RouteDefinition] {
  const below = ['profiles', ':profile_id', 'payments', ':payment_id', ...tail];
  const name = (segments: readonly string[]) =>
    `${method} /${segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`;
  const profile = ['v1', ...below];
  const partner = ['v1', 'partners', ':partner_id', ...below];
  return [
    { method, pattern: profile, name: name(profile), handler },
    { method, pattern: partner, name: name(partner), handler },
  ];
}
