import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/*
 * examples/nextjs/ is written in Next.js's route-handler shape (each route.ts exports GET, POST…
 * taking a Request): this test imports the route modules and calls them as Next would, with real
 * Request objects, then serves them over a socket behind a router that matches paths as the App
 * Router does (a static segment before the catch-all).
 */

const SECRET = 'cron-secret-for-the-nextjs-example';
vi.stubEnv('CRON_SECRET', SECRET);

const lib = await import('../../examples/nextjs/paystate.js');
const api = await import('../../examples/nextjs/app/api/[...paystate]/route.js');
const cron = await import('../../examples/nextjs/app/api/cron/route.js');
const healthz = await import('../../examples/nextjs/app/healthz/route.js');
const readyz = await import('../../examples/nextjs/app/readyz/route.js');

const ORIGIN = 'http://shop.example';
const PAYMENTS = '/api/v1/profiles/profile_shop/payments';
const order = {
  method: 'creditcard',
  currency: 'EUR',
  amount: 4250,
  reference: 'order-1001',
  billing: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
  },
  shipping: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
  },
  session: { redirect_url: 'https://shop.example/orders/1001' },
};
const auth = { authorization: `Bearer ${lib.PAYSTATE_TOKEN}` };

type Route = (request: Request) => Promise<Response>;

/** The route a Next.js App Router would pick for a path and method; 405 when the module lacks the method. */
function route(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const modules: readonly (readonly [boolean, Record<string, unknown>])[] = [
    [path === '/api/cron', cron],
    [path === '/healthz', healthz],
    [path === '/readyz', readyz],
    [path.startsWith('/api/'), api],
  ];
  const found = modules.find(([matches]) => matches)?.[1];
  if (found === undefined) return Promise.resolve(new Response('not found', { status: 404 }));
  const handler = found[request.method] as Route | undefined;
  return handler === undefined ? Promise.resolve(new Response(null, { status: 405 })) : handler(request);
}

describe('examples/nextjs: the route handlers called with Request objects', () => {
  it('the catch-all route creates and reads a payment, links under /api, and answers bad JSON as a problem', async () => {
    const created = await api.POST(
      new Request(`${ORIGIN}${PAYMENTS}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
        body: JSON.stringify(order),
      }),
    );
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(
      /^\/api\/v1\/partners\/partner_shop\/profiles\/profile_shop\/payments\/payment_[0-9a-f]{32}$/,
    );
    const read = await api.GET(new Request(`${ORIGIN}${location}`, { headers: auth }));
    expect(read.status).toBe(200);
    expect(((await read.json()) as { state: string }).state).toBe('processing');

    const broken = await api.POST(
      new Request(`${ORIGIN}${PAYMENTS}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"amount":',
      }),
    );
    expect(broken.status).toBe(400);
    expect(broken.headers.get('content-type')).toBe('application/problem+json');
    expect(((await broken.json()) as { code: string }).code).toBe('invalid_json');
    const unknown = await api.DELETE(new Request(`${ORIGIN}${PAYMENTS}`, { method: 'DELETE', headers: auth }));
    expect(unknown.status).toBe(405);
  });

  it('the cron route refuses a caller without the shared secret, and sweeps and delivers the events with it', async () => {
    const before = lib.events.events().length;
    for (const authorization of [undefined, 'Bearer wrong-secret', SECRET]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const refused = await cron.GET(new Request(`${ORIGIN}/api/cron`, { headers }));
      expect(refused.status, String(authorization)).toBe(401);
    }
    expect(lib.events.events()).toHaveLength(before);

    await api.POST(
      new Request(`${ORIGIN}${PAYMENTS}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'order-1002' },
        body: JSON.stringify({ ...order, reference: 'order-1002' }),
      }),
    );
    const ran = await cron.GET(new Request(`${ORIGIN}/api/cron`, { headers: { authorization: `Bearer ${SECRET}` } }));
    expect(ran.status).toBe(200);
    const body = (await ran.json()) as { sweep: { ok: boolean; report: object }; delivery: { delivered: number } };
    expect(body.sweep).toMatchObject({ ok: true, report: { expired: 0, errors: 0 } });
    expect(body.delivery.delivered).toBeGreaterThan(0);
    expect(lib.events.events().length).toBe(before + body.delivery.delivered);
  });

  it('the health routes answer liveness and readiness', async () => {
    const live = await healthz.GET(new Request(`${ORIGIN}/healthz`));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await readyz.GET(new Request(`${ORIGIN}/readyz`));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', storage: { status: 'ok', ms: expect.any(Number) } });
  });
});

describe('examples/nextjs over a socket (@hono/node-server), routed as the App Router would', () => {
  let server: ServerType;
  let base = '';
  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: route, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('serves the API, the cron route and the probes', async () => {
    const created = await fetch(`${base}${PAYMENTS}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'order-2001' },
      body: JSON.stringify({ ...order, reference: 'order-2001' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const tooLarge = await fetch(`${base}${PAYMENTS}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: `{"x":"${'a'.repeat(70 * 1024)}"}`,
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('content-type')).toBe('application/problem+json');
    expect((await fetch(`${base}/api/cron`)).status).toBe(401);
    const swept = await fetch(`${base}/api/cron`, { headers: { authorization: `Bearer ${SECRET}` } });
    expect(swept.status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`, { method: 'HEAD' })).status).toBe(200);
  });
});
