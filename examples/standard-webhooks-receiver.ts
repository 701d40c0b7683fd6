/**
 * paystate's webhooks under the Standard Webhooks scheme, checked by the `standardwebhooks`
 * library: a node:http receiver that verifies with `new Webhook(secret).verify(…)`, and an engine
 * whose event sink signs with `scheme: 'standard-webhooks'` and a `whsec_<base64>` secret.
 * Run it: `npx tsx examples/standard-webhooks-receiver.ts`. Guide: docs/guides/standard-webhooks.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentEngine, type Client } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository } from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';
import { createWebhookEventSink, generateStandardWebhookSecret, type WebhookEvent } from 'paystate/webhooks';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

// `whsec_` and the key in standard base64: the format this scheme (and every Standard Webhooks
// library) takes. A secret of generateWebhookSecret() is for the default scheme, and is refused here.
const secret = generateStandardWebhookSecret();

// ---- The receiver: it knows nothing of paystate, only the Standard Webhooks library ----

const verifier = new Webhook(secret);
const seen = new Set<string>(); // in production: a table with a unique key on webhook-id

function receive(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      // The raw body, as sent: a body parsed and serialized again would not verify.
      const event = verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
      const { id, type, data } = event as WebhookEvent;
      if (!seen.has(id)) {
        seen.add(id);
        console.log(`  received ${type} (${data.payment.state})`);
      }
      res.writeHead(204).end();
    } catch (error) {
      console.log(`  refused: ${error instanceof WebhookVerificationError ? error.message : 'not JSON'}`);
      res.writeHead(401).end();
    }
  });
}

const receiver = createServer(receive);
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

// ---- The engine ----

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
  events: createWebhookEventSink({
    url: endpoint,
    scheme: 'standard-webhooks',
    secrets: secret, // while rotating: [newSecret, oldSecret], one v1 signature each
    allowInsecureHttp: true, // a receiver on localhost only
    allowPrivateNetworks: true,
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
// A hosted payment: the cardholder enters the card on paystate's page, later.
const created = await engine.createPayment({
  client: shop,
  profileId: 'profile_1',
  body: {
    method: 'creditcard',
    currency: 'EUR',
    amount: 1999,
    billing: ada,
    shipping: ada,
    session: { redirect_url: 'https://shop.example/return' },
  },
});
console.log(`hosted payment: ${created.isOk() ? created.value.state : created.error.code}`);

console.log('delivering events');
await engine.deliverEvents();

// A request whose body was changed after it was signed: the library refuses it.
console.log('a tampered request');
const timestamp = Math.floor(Date.now() / 1000);
const signed = verifier.sign('evt_1', new Date(timestamp * 1000), '{"type":"payment.created"}');
const tampered = await fetch(endpoint, {
  method: 'POST',
  headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signed },
  body: '{"type":"payment.succeeded"}',
});
console.log(`  answered ${tampered.status}`);

receiver.close();
