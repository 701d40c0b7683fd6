import { err, ok, type Result } from 'neverthrow';
import { clientMayActOn, type Client } from '../../src/ports/credential-store.js';
import { problem, type Problem } from './problem-details.js';
import { readQuery } from './query-params.js';
import { param, type RouteContext } from './route-context.js';

/**
 * Tenancy (docs/http-api.md, Authentication and tenancy), decided in the HTTP layer before any port beyond the credential
 * store is called (the engine checks again).
 */

/** A partner in the path other than the client's own: 404, never revealing that it exists. */
function checkPartner(client: Client, partnerId: string): Result<void, Problem> {
  return client.partnerId === partnerId ? ok(undefined) : err(problem('not_found', 'Not found'));
}

/** A profile the client may not act on: 403 `forbidden_profile`. */
export function checkProfile(client: Client, profileId: string): Result<void, Problem> {
  return clientMayActOn(client, profileId)
    ? ok(undefined)
    : err(problem('forbidden_profile', 'This client may not act on this profile'));
}

/** What `checkRoute` found: the profile in the path and the query's values. */
export interface RouteScope {
  readonly profileId: string;
  readonly query: Readonly<Record<string, string>>;
}

/**
 * A route's tenancy, then its query (`allowed` names only, each at most once): a `partner_id` in
 * the path other than the client's 404, a `profile_id` it may not act on 403, any other query 400.
 */
export function checkRoute(context: RouteContext, allowed: readonly string[]): Result<RouteScope, Problem> {
  const partnerId = context.params['partner_id'];
  if (partnerId !== undefined) {
    const partner = checkPartner(context.client, partnerId);
    if (partner.isErr()) return err(partner.error);
  }
  const profileId = param(context, 'profile_id');
  const access = checkProfile(context.client, profileId);
  if (access.isErr()) return err(access.error);
  // Most requests have no query: no URL to parse.
  const query = context.search === '' ? ok({}) : readQuery(context.url, allowed);
  return query.map((values) => ({ profileId, query: values }));
}

/** A body with a `creditcard` member from a client not registered as PCI DSS compliant: 403. */
export function checkDirectFlow(client: Client, body: unknown): Result<void, Problem> {
  const carriesCard = typeof body === 'object' && body !== null && Object.hasOwn(body, 'creditcard');
  return carriesCard && !client.pciDssCompliant
    ? err(
        problem(
          'direct_flow_not_permitted',
          'Card data may only be sent by clients registered as PCI DSS compliant; use the hosted flow',
        ),
      )
    : ok(undefined);
}
