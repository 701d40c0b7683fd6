/**
 * An existing Fastify app that registers paystate under /payments-api, behind its own
 * authentication. Run it: `npx tsx examples/fastify-app.ts`. Guide: docs/guides/fastify.md.
 */
import Fastify, { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import { createPaymentEngine } from 'paystate';
import { paystate, paystateFrameworkErrors } from 'paystate/fastify';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

// paystate: the engine on in-memory adapters and the simulated acquirer (swap in yours).
const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://shop.example/3ds/${id}/${tx}`,
  }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  options: { hostedPageUrl: ({ id, token }) => `https://shop.example/pay/${id}?token=${token}` },
});

// paystate's own API clients. Here one: the shop's back end, which may not send card data.
const PAYSTATE_TOKEN = 'shop-backend-token-change-me';
const credentials = createMemoryCredentialStore({
  partners: [{ id: 'partner_shop', profiles: [{ id: 'profile_shop', name: 'The Shop' }] }],
  clients: [
    { token: PAYSTATE_TOKEN, partner_id: 'partner_shop', profile_ids: ['profile_shop'], pci_dss_compliant: false },
  ],
});

// The host's own authentication: staff API keys it already has. A known key may use the
// payments API; the hook then presents paystate's client token on the caller's behalf.
const STAFF_KEYS = new Map([['staff-key-ada', 'ada']]);
const staffOnly: onRequestHookHandler = async (request, reply) => {
  const key = request.headers['x-staff-key'];
  if (typeof key !== 'string' || !STAFF_KEYS.has(key)) {
    await reply.code(401).send({ error: 'Unknown staff key' });
    return;
  }
  request.headers.authorization = `Bearer ${PAYSTATE_TOKEN}`;
};

// The router's own refusals (a target that does not decode) as problem documents too.
const app = Fastify({ frameworkErrors: paystateFrameworkErrors() });
app.get('/health', () => ({ ok: true }));
await app.register(
  async (payments: FastifyInstance) => {
    payments.addHook('onRequest', staffOnly); // only in this scope: the host's other routes are untouched
    await payments.register(
      paystate({ engine, credentials, idempotency: createMemoryIdempotencyStore(), clock: systemClock }),
    );
  },
  { prefix: '/payments-api' },
);

const base = await app.listen({ port: 0, host: '127.0.0.1' });
const worker = engine.startBackgroundWorker(); // expiries, inquiries, event delivery

// The app calls itself: first without a staff key, then as Ada.
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
const create = (headers: Record<string, string>, body = JSON.stringify(order)) =>
  fetch(`${base}/payments-api/v1/profiles/profile_shop/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1001', ...headers },
    body,
  });

const refused = await create({});
console.log(`without a staff key: ${refused.status} ${await refused.text()}`);

const created = await create({ 'x-staff-key': 'staff-key-ada' });
const payment = (await created.json()) as { id: string; state: string; next?: { redirect: string } };
const location = created.headers.get('location') ?? '';
console.log(`created: ${created.status} ${payment.state} ${location}`);
console.log(`send the cardholder to: ${payment.next?.redirect ?? '(nowhere)'}`);

const read = await fetch(`${base}${location}`, { headers: { 'x-staff-key': 'staff-key-ada' } });
console.log(`read back: ${read.status} ${((await read.json()) as { state: string }).state}`);

const broken = await create({ 'x-staff-key': 'staff-key-ada', 'idempotency-key': 'order-1002' }, '{"amount":');
const problem = (await broken.json()) as { code: string };
console.log(`bad JSON: ${broken.status} ${broken.headers.get('content-type') ?? ''} ${problem.code}`);

const health = await fetch(`${base}/health`);
console.log(`the host's own routes still answer: ${health.status} ${await health.text()}`);

await worker.stop();
await app.close();
