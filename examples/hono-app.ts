/**
 * A Hono app serving paystate's fetch handler under /payments, with the OpenAPI document and
 * reference page beside it. Hono runs it in-process here (`app.request`); the same `app` runs on
 * Workers, Bun, Deno or node. Run it: `npx tsx examples/hono-app.ts`. Guide: docs/guides/hono-and-node-http.md.
 */
import { Hono } from 'hono';
import { createPaymentEngine } from 'paystate';
import { createFetchHandler, createOpenApiPages } from 'paystate/http';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://shop.example/payments/3ds/${id}/${tx}`,
  }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  options: { hostedPageUrl: ({ id, token }) => `https://shop.example/payments/pay/${id}?token=${token}` },
});

const TOKEN = 'pci-compliant-backend-token';
const payments = createFetchHandler({
  engine,
  credentials: createMemoryCredentialStore({
    partners: [{ id: 'partner_shop', profiles: [{ id: 'profile_shop', name: 'The Shop' }] }],
    clients: [{ token: TOKEN, partner_id: 'partner_shop', profile_ids: ['profile_shop'], pci_dss_compliant: true }],
  }),
  idempotency: createMemoryIdempotencyStore(),
  clock: systemClock,
  basePath: '/payments', // links and Location are written under the mount path
  pages: createOpenApiPages({ basePath: '/payments' }), // /payments/openapi.json and /payments/docs
});

const app = new Hono();
app.get('/', (c) => c.text('The Shop'));
app.use('/payments/*', async (c, next) => {
  await next();
  c.header('x-served-by', 'the-shop'); // the host's own middleware runs around paystate
});
app.mount('/payments', payments);

// Requests in-process: a direct payment with the sandbox card 5555 5555 5555 4444.
const created = await app.request('/payments/v1/profiles/profile_shop/payments', {
  method: 'POST',
  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    method: 'creditcard',
    currency: 'EUR',
    amount: 1500,
    billing: {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      address: { thoroughfare: 'Main St 1', locality: 'Arlington', postal_code: '22201', country: 'US' },
    },
    shipping: {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      address: { thoroughfare: 'Main St 1', locality: 'Arlington', postal_code: '22201', country: 'US' },
    },
    session: { redirect_url: 'https://shop.example/thanks' },
    creditcard: {
      number: '5555555555554444',
      cvc: '123',
      expiration: `${new Date().getUTCFullYear() + 2}-06-01T00:00:00.000Z`,
      holder_name: 'Grace Hopper',
    },
    user: {
      ip_address: '198.51.100.7',
      user_agent: 'Mozilla/5.0',
      accept: 'text/html',
      accept_encoding: 'gzip',
      accept_language: 'en-US',
      language: 'en-US',
      screen_width: 1440,
      screen_height: 900,
      java_enabled: false,
      javascript_enabled: true,
      color_depth: 24,
      timezone_offset: 300,
    },
  }),
});
const payment = (await created.json()) as { state: string; creditcard?: { card: { last4: string } } };
console.log(`created: ${created.status} ${payment.state} card …${payment.creditcard?.card.last4 ?? ''}`);
console.log(
  `Location: ${created.headers.get('location') ?? ''} (served by ${created.headers.get('x-served-by') ?? '?'})`,
);

const list = await app.request('/payments/v1/profiles/profile_shop/payments?limit=10', {
  headers: { authorization: `Bearer ${TOKEN}` },
});
console.log(`listed: ${list.status} ${((await list.json()) as { items: unknown[] }).items.length} payment(s)`);

const spec = await app.request('/payments/openapi.json');
const document = (await spec.json()) as { info: { title: string }; paths: Record<string, unknown> };
console.log(
  `OpenAPI: ${document.info.title}, ${Object.keys(document.paths).length} paths; reference page at /payments/docs`,
);

console.log(`the host's own routes: ${await (await app.request('/')).text()}`);
