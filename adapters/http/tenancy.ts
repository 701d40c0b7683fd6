import { err, ok, type Result } from 'neverthrow';
import { clientMayActOn, type Client } from '../../src/ports/credential-store.js';
import { problem, type Problem } from './problem-details.js';

/**
 * Tenancy (docs/http-api.md, Authentication and tenancy), decided in the HTTP layer before any port beyond the credential
 * store is called (the engine checks again).
 */

/** A partner in the path other than the client's own: 404, never revealing that it exists. */
export function checkPartner(client: Client, partnerId: string): Result<void, Problem> {
  return client.partnerId === partnerId ? ok(undefined) : err(problem('not_found', 'Not found'));
}

/** A profile the client may not act on: 403 `forbidden_profile`. */
export function checkProfile(client: Client, profileId: string): Result<void, Problem> {
  return clientMayActOn(client, profileId)
    ? ok(undefined)
    : err(problem('forbidden_profile', 'This client may not act on this profile'));
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
