/**
 * paystate's signed webhooks, both ends in one process: a node:http receiver that checks every
 * request with `parseWebhookEvent` before it believes a word of it, and an engine whose event sink
 * (`createWebhookEventSink`) POSTs each domain event to that receiver.
 * Run it: `npx tsx examples/webhook-receiver.ts`. Guide: docs/webhooks.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentEngine, type Client } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository } from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';
import {
  createWebhookEventSink,
  generateWebhookSecret,
  parseWebhookEvent,
  type WebhookEvent,
  type WebhookEventError,
} from 'paystate/webhooks';

// Shared by both ends, and by nobody else: in production, from your secret store.
const secret = generateWebhookSecret();

// ---- The receiver (the merchant's back end) ----

/** The most a webhook body may hold: a payment is a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024;
const seen = new Set<string>(); // in production: a table with a unique key on the event id

/** What to answer a request that is not taken: 401 unless it is signed, 2xx for a type it does not know. */
function statusFor(error: WebhookEventError): number {
  switch (error.code) {
    case 'missing_header':
    case 'malformed_header':
    case 'no_matching_signature':
    case 'timestamp_out_of_tolerance':
      return 401;
    case 'malformed_payload':
      return 400;
    case 'payload_too_large':
      return 413;
    case 'unknown_event_type':
      return 204; // from a newer paystate: refusing it would only have it sent again and again
  }
}

function handle(event: WebhookEvent): void {
  const { payment } = event.data;
  console.log(
    `  received ${event.type} (${payment.state}${payment.failure_reason ? `, ${payment.failure_reason}` : ''})`,
  );
}

function receive(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST' || req.url !== '/hooks/paystate') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    // The raw bytes, as sent: a body parsed and serialized again would not verify.
    const result = parseWebhookEvent({
      payload: Buffer.concat(chunks),
      header: req.headers['paystate-signature'],
      secrets: secret, // while rotating: [newSecret, oldSecret]
    });
    if (result.isErr()) {
      console.log(`  refused a request: ${result.error.code}`);
      res.writeHead(statusFor(result.error)).end();
      return;
    }
    // At least once: the same event may come again. De-duplicate on its id.
    if (!seen.has(result.value.id)) {
      seen.add(result.value.id);
      handle(result.value);
    }
    res.writeHead(204).end();
  });
}

const receiver = createServer(receive);
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/paystate`;

// ---- The engine (the payment platform) ----

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
  // https only, and public addresses only, unless told otherwise: a receiver on localhost is the
  // exception. Never allow private networks where merchants choose the URL.
  events: createWebhookEventSink({
    url: endpoint,
    secrets: secret,
    allowInsecureHttp: true,
    allowPrivateNetworks: true,
    timeoutMs: 5_000,
  }),
  options: { hostedPageUrl: ({ id, token }) => `https://pay.example/pay/${id}?token=${token}` },
});

const shop: Client = { id: 'client_shop', partnerId: 'partner_1', profileIds: ['profile_1'], pciDssCompliant: true };
const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
};
const browser = {
  ip_address: '192.0.2.1',
  user_agent: 'Mozilla/5.0',
  accept: 'text/html',
  accept_encoding: 'gzip',
  accept_language: 'en',
  language: 'en',
  screen_width: 1280,
  screen_height: 800,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: 0,
};
const pay = (number: string) =>
  engine.createPayment({
    client: shop,
    profileId: 'profile_1',
    body: {
      method: 'creditcard',
      currency: 'EUR',
      amount: 1999,
      billing: ada,
      shipping: ada,
      session: { redirect_url: 'https://shop.example/return' },
      creditcard: { number, cvc: '123', expiration: '2030-12-01T00:00:00.000Z', holder_name: 'Ada Lovelace' },
      user: browser,
    },
  });

for (const [name, card] of [
  ['approved', '4242424242424242'],
  ['declined', '4000000000009995'],
] as const) {
  (await pay(card)).match(
    (payment) => console.log(`${name} card: ${payment.state}`),
    (error) => console.log(`${name} card: ${error.code}`),
  );
}

// The background worker delivers events every second; here delivery is run once, by hand.
console.log('delivering events');
await engine.deliverEvents();

// Anyone can POST to the endpoint: only a signed request is taken.
console.log('a forged request');
const forged = await fetch(endpoint, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'paystate-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
  },
  body: JSON.stringify({ id: 'evt_forged', type: 'payment.succeeded' }),
});
console.log(`  answered ${forged.status}`);

receiver.close();
