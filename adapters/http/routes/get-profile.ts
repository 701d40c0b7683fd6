import { err, ok } from 'neverthrow';
import { profilePath } from '../../../src/domain/payment.js';
import { jsonAnswer } from '../http-answer.js';
import { problem } from '../problem-details.js';
import { param, type RouteDefinition, type RouteHandler } from '../route-context.js';
import { callCredentialStore, credentialStoreUnavailable } from '../store-deadline.js';
import { checkRoute } from '../tenancy.js';

/** The profile resource as the API returns it (the target of a payment's `_links.profile`). */
export interface ProfileResource {
  readonly id: string;
  readonly partner_id: string;
  readonly name: string;
  readonly _links: { readonly self: { readonly href: string; readonly type: 'application/json' } };
}

/** `GET /v1/partners/{partner_id}/profiles/{profile_id}`. */
const getProfileRoute: RouteHandler = async (context) => {
  const { deps } = context;
  const scope = checkRoute(context, []);
  if (scope.isErr()) return err(scope.error);
  const { profileId } = scope.value;
  const partnerId = param(context, 'partner_id');

  const found = await callCredentialStore(
    deps,
    'findProfile',
    () => deps.credentials.findProfile(profileId),
    context.logger,
  );
  if (found.isErr()) return err(credentialStoreUnavailable());
  const profile = found.value;
  if (profile === null || profile.partnerId !== partnerId) return err(problem('not_found', 'Profile not found'));
  const resource: ProfileResource = {
    id: profile.id,
    partner_id: profile.partnerId,
    name: profile.name,
    _links: {
      self: { href: `${context.basePath}${profilePath(profile.partnerId, profile.id)}`, type: 'application/json' },
    },
  };
  return ok(jsonAnswer(200, resource));
};

/** `GET /v1/partners/{partner_id}/profiles/{profile_id}`. */
export const getProfile: RouteDefinition = {
  method: 'GET',
  pattern: ['v1', 'partners', ':partner_id', 'profiles', ':profile_id'],
  name: 'GET /v1/partners/{partner_id}/profiles/{profile_id}',
  handler: getProfileRoute,
};
