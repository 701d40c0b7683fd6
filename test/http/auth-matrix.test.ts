import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directRequest, hostedRequest } from '../support/requests.js';
import {
  CONFIG,
  makeApi,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type RunningServer,
} from './support/api-harness.js';
import { call, get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

interface Caller {
  readonly name: string;
  readonly headers: Record<string, string>;
  readonly client?: (typeof CONFIG.clients)[number] | undefined;
}

const clientOf = (token: string) => CONFIG.clients.find((client) => client.token === token);

const CALLERS: readonly Caller[] = [
  { name: 'no token', headers: {} },
  { name: 'unknown token', headers: { authorization: 'Bearer tok_nobody' } },
  ...Object.entries(TOKENS).map(([name, token]) => ({
    name,
    headers: { authorization: `Bearer ${token}` },
    client: clientOf(token),
  })),
];

const PROFILES = ['profile_alpha_main', 'profile_alpha_second', 'profile_beta_main', 'profile_ghost'] as const;
const PARTNERS = ['partner_alpha', 'partner_beta'] as const;

const partnerOf = (profileId: string) =>
  CONFIG.partners.find((partner) => partner.profiles.some((profile) => profile.id === profileId))?.id;

/** Status, problem code, and whether the HTTP layer refuses it before any port but the credential store. */
type Expected = readonly [status: number, code?: string, refusedUpFront?: boolean];

/** Section 3 of decisions.md written out as a model. */
function expected(
  caller: Caller,
  request: { readonly profileId: string; readonly partnerId?: string; readonly direct?: boolean },
  success: number,
  found = true,
): Expected {
  const client = caller.client;
  if (client === undefined) return [401, 'unauthorized', true];
  if (request.partnerId !== undefined && request.partnerId !== client.partner_id) return [404, 'not_found', true];
  if (!client.profile_ids.includes(request.profileId)) return [403, 'forbidden_profile', true];
  if (request.direct === true && !client.pci_dss_compliant) return [403, 'direct_flow_not_permitted', true];
  return found ? [success] : [404, 'not_found', false];
}

describe.each(SERVER_KINDS)('auth matrix: tokens × profiles × endpoints, served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  /** One payment in each profile that has a client able to create it. */
  const seeded = new Map<string, string>();

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    for (const [profileId, token] of [
      ['profile_alpha_main', TOKENS.alphaCompliant],
      ['profile_alpha_second', TOKENS.alphaSecondOnly],
      ['profile_beta_main', TOKENS.betaCompliant],
    ] as const) {
      const created = await post(`${server.base}/v1/profiles/${profileId}/payments`, token, hostedRequest());
      expect(created.status).toBe(201);
      seeded.set(profileId, created.json.id);
    }
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  /** Sends the request; a refused one must have reached no port but the credential store, and stored nothing. */
  async function check(send: () => Promise<Answer>, [status, code, refusedUpFront]: Expected): Promise<Answer> {
    const calls = api.calls.beyondCredentials();
    const stored = api.repository.snapshot();
    const answer = await send();
    if (code === undefined) {
      expect(answer.status).toBe(status);
      return answer;
    }
    expectProblem(answer, status, code);
    if (refusedUpFront === true) expect(api.calls.beyondCredentials()).toBe(calls);
    expect(api.repository.snapshot()).toEqual(stored);
    return answer;
  }

  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('%s', async (_name, caller) => {
    const headers = { ...caller.headers, accept: 'application/json' };
    for (const profileId of PROFILES) {
      const collection = `${server.base}/v1/profiles/${profileId}/payments`;

      // create, hosted and direct
      for (const direct of [false, true]) {
        const body = direct ? directRequest('4242424242424242') : hostedRequest();
        const answer = await check(
          () =>
            call(collection, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body,
            }),
          expected(caller, { profileId, direct }, 201),
        );
        if (answer.status === 201) expect(answer.json._links.self.href).toContain(`/profiles/${profileId}/payments/`);
      }

      // list: only payments of that profile
      const list = await check(() => call(collection, { headers }), expected(caller, { profileId }, 200));
      if (list.status === 200) {
        for (const item of list.json.items)
          expect(item._links.profile.href.endsWith(`/profiles/${profileId}`)).toBe(true);
      }

      // read every seeded payment through both paths
      for (const [ownerProfile, paymentId] of seeded) {
        const same = ownerProfile === profileId;
        const read = await check(
          () => call(`${collection}/${paymentId}`, { headers }),
          expected(caller, { profileId }, 200, same),
        );
        if (read.status === 200) expect(read.json.id).toBe(paymentId);
        for (const partnerId of PARTNERS) {
          const viaPartner = await check(
            () =>
              call(`${server.base}/v1/partners/${partnerId}/profiles/${profileId}/payments/${paymentId}`, { headers }),
            expected(caller, { profileId, partnerId }, 200, same && partnerOf(ownerProfile) === partnerId),
          );
          if (viaPartner.status === 200) expect(viaPartner.json.id).toBe(paymentId);
        }
      }

      // the profile resource
      for (const partnerId of PARTNERS) {
        const profile = await check(
          () => call(`${server.base}/v1/partners/${partnerId}/profiles/${profileId}`, { headers }),
          expected(caller, { profileId, partnerId }, 200, partnerOf(profileId) === partnerId),
        );
        if (profile.status === 200) {
          expect(profile.json).toEqual({
            id: profileId,
            partner_id: partnerId,
            name: expect.any(String),
            _links: {
              self: {
                href: `${server.basePath}/v1/partners/${partnerId}/profiles/${profileId}`,
                type: 'application/json',
              },
            },
          });
        }
      }
    }
  });

  it('no cross-tenant read ever succeeds', async () => {
    for (const caller of CALLERS) {
      const client = caller.client;
      for (const [ownerProfile, paymentId] of seeded) {
        const mayRead = client !== undefined && client.profile_ids.includes(ownerProfile);
        for (const profileId of PROFILES) {
          const answers = [
            await get(`${server.base}/v1/profiles/${profileId}/payments/${paymentId}`, ''),
            await call(`${server.base}/v1/profiles/${profileId}/payments/${paymentId}`, { headers: caller.headers }),
            ...(await Promise.all(
              PARTNERS.map((partnerId) =>
                call(`${server.base}/v1/partners/${partnerId}/profiles/${profileId}/payments/${paymentId}`, {
                  headers: caller.headers,
                }),
              ),
            )),
          ];
          for (const answer of answers) {
            if (answer.status === 200) {
              expect(mayRead).toBe(true);
              expect(answer.json.id).toBe(paymentId);
            }
          }
        }
        if (!mayRead) {
          for (const profileId of PROFILES) {
            const list = await call(`${server.base}/v1/profiles/${profileId}/payments?limit=100`, {
              headers: caller.headers,
            });
            if (list.status === 200) expect(list.text).not.toContain(paymentId);
          }
        }
      }
    }
  });
});
