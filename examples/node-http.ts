/**
 * paystate on bare node:http: `createNodeListener` serves the API directly on node's request and
 * response, and the pages (here the OpenAPI document and reference page) through fetch objects.
 * Run it: `npx tsx examples/node-http.ts`. Guide: docs/guides/hono-and-node-http.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentEngine } from 'paystate';
import { createNodeListener, createOpenApiPages } from 'paystate/http';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from 'paystate/memory';
import { createConsoleLogger, createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

const logger = createConsoleLogger({ level: 'warn' }); // `info` logs one line per request
const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://pay.example/3ds/${id}/${tx}`,
  }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  logger,
  options: { hostedPageUrl: ({ id, token }) => `https://pay.example/pay/${id}?token=${token}` },
});

const TOKEN = 'shop-backend-token-change-me';
const server = createServer(
  createNodeListener({
    engine,
    credentials: createMemoryCredentialStore({
      partners: [{ id: 'partner_shop', profiles: [{ id: 'profile_shop', name: 'The Shop' }] }],
      clients: [{ token: TOKEN, partner_id: 'partner_shop', profile_ids: ['profile_shop'], pci_dss_compliant: false }],
    }),
    idempotency: createMemoryIdempotencyStore(),
    clock: systemClock,
    logger,
    pages: createOpenApiPages(), // GET /openapi.json and /docs
  }),
);
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const worker = engine.startBackgroundWorker();

const contact = {
  first_name: 'Alan',
  last_name: 'Turing',
  email: 'alan@example.com',
  address: { thoroughfare: 'Bletchley Park', locality: 'Milton Keynes', postal_code: 'MK3 6EB', country: 'GB' },
};
const created = await fetch(`${base}/v1/profiles/profile_shop/payments`, {
  method: 'POST',
  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    method: 'creditcard',
    currency: 'GBP',
    amount: 999,
    billing: contact,
    shipping: contact,
    session: { redirect_url: 'https://shop.example/done' },
  }),
});
const payment = (await created.json()) as { state: string; next?: { redirect: string } };
console.log(`created: ${created.status} ${payment.state}, hosted page ${payment.next?.redirect ?? '-'}`);

const bad = await fetch(`${base}/v1/profiles/profile_shop/payments`, {
  method: 'POST',
  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify({ method: 'creditcard', currency: 'GBP', amount: 0 }),
});
const problem = (await bad.json()) as { code: string; errors: { path: string }[] };
console.log(`invalid: ${bad.status} ${problem.code} (${problem.errors.map((e) => e.path).join(', ')})`);

const docs = await fetch(`${base}/docs`);
console.log(`reference page: ${docs.status} ${docs.headers.get('content-type') ?? ''}`);

await worker.stop();
await new Promise((resolve) => server.close(resolve));
