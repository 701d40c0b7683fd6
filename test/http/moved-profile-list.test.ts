import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCredentialStore, type SandboxConfig } from '../../adapters/memory/index.js';
import { createNodeListener } from '../../adapters/http/index.js';
import type { CredentialStore } from '../../src/index.js';
import { hostedRequest } from '../support/requests.js';
import { CONFIG, makeApi, TOKENS, type ApiHarness } from './support/api-harness.js';
import { get, post } from './support/client.js';

/*
 * Found by a reviewer: the list of a profile's payments was filtered by partner after the
 * repository had cut the page, so once the host's config moved a profile to another partner, a
 * client of the new partner walking `?limit=1` got `{"items":[],"next_cursor":"payment_<the old
 * partner's>"}`, page after page: the other partner's payment ids, their count and order.
 */
const PROFILE = 'profile_alpha_second';

/** The profile given to partner_beta, whose client may now act on it; alpha's client no longer may. */
const MOVED: SandboxConfig = {
  partners: [
    { id: 'partner_alpha', profiles: [{ id: 'profile_alpha_main', name: 'Alpha Shop' }] },
    {
      id: 'partner_beta',
      profiles: [
        { id: 'profile_beta_main', name: 'Beta Store' },
        { id: PROFILE, name: 'Beta Outlet' },
      ],
    },
  ],
  clients: [
    {
      token: TOKENS.alphaHosted,
      partner_id: 'partner_alpha',
      profile_ids: ['profile_alpha_main'],
      pci_dss_compliant: false,
    },
    {
      token: TOKENS.betaCompliant,
      partner_id: 'partner_beta',
      profile_ids: ['profile_beta_main', PROFILE],
      pci_dss_compliant: true,
    },
  ],
};

describe('listing a profile that changed hands', () => {
  const before = createMemoryCredentialStore(CONFIG);
  const after = createMemoryCredentialStore(MOVED);
  /** The host's credential store: its config says who the profile belongs to now. */
  let current: CredentialStore = before;
  const credentials: CredentialStore = {
    authenticate: (token) => current.authenticate(token),
    findProfile: (profileId) => current.findProfile(profileId),
  };

  let api: ApiHarness;
  let server: Server;
  let origin: string;
  const alphaIds: string[] = [];
  const betaIds: string[] = [];

  const create = async (token: string): Promise<string> => {
    const created = await post(`${origin}/v1/profiles/${PROFILE}/payments`, token, hostedRequest());
    expect(created.status).toBe(201);
    api.clock.advance(1);
    return created.json.id as string;
  };

  beforeAll(async () => {
    api = makeApi();
    server = createServer(createNodeListener({ ...api.handlerOptions, credentials }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Alpha's payments, then beta's once the profile moved, then the profile moves back and forth.
    for (const [owner, count] of [
      ['alpha', 3],
      ['beta', 2],
      ['alpha', 2],
      ['beta', 3],
    ] as const) {
      current = owner === 'alpha' ? before : after;
      for (let index = 0; index < count; index++) {
        if (owner === 'alpha') alphaIds.push(await create(TOKENS.alphaHosted));
        else betaIds.push(await create(TOKENS.betaCompliant));
      }
    }
    current = after;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(api.unhandled()).toEqual([]);
  });

  it.each([1, 2, 3])(
    'a client of the new partner walks full pages of its own payments only, limit %i',
    async (limit) => {
      const seen: string[] = [];
      const pageSizes: number[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const query = `limit=${limit}${cursor === undefined ? '' : `&after=${cursor}`}`;
        const page = await get(`${origin}/v1/profiles/${PROFILE}/payments?${query}`, TOKENS.betaCompliant);
        expect(page.status).toBe(200);
        for (const id of alphaIds) expect(page.text).not.toContain(id);
        seen.push(...(page.json.items as { id: string }[]).map((item) => item.id));
        pageSizes.push(page.json.items.length);
        cursor = page.json.next_cursor as string | undefined;
        if (cursor === undefined) break;
      }
      expect(seen).toEqual([...betaIds].reverse());
      const full = Math.floor(betaIds.length / limit);
      const rest = betaIds.length % limit;
      expect(pageSizes).toEqual([...Array<number>(full).fill(limit), ...(rest > 0 ? [rest] : [])]);
    },
  );

  it('answers a cursor naming the old partner’s payment as an unknown one', async () => {
    const unknown = await get(
      `${origin}/v1/profiles/${PROFILE}/payments?after=payment_${'e'.repeat(32)}`,
      TOKENS.betaCompliant,
    );
    expect(unknown.status).toBe(400);
    for (const id of alphaIds) {
      const page = await get(`${origin}/v1/profiles/${PROFILE}/payments?after=${id}`, TOKENS.betaCompliant);
      expect({ status: page.status, body: page.json }).toEqual({ status: unknown.status, body: unknown.json });
    }
    expect(unknown.json).toMatchObject({ code: 'validation_failed', errors: [{ path: 'after' }] });
  });
});
