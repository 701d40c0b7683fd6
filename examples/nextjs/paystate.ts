/**
 * What the route handlers of a Next.js app share (`lib/paystate.ts` in your app): the engine,
 * the API's fetch handler under `/api`, and the health probes. Guide: docs/guides/nextjs.md.
 */
import { createPaymentEngine } from 'paystate';
import { createFetchHandler, createHealthHandlers } from 'paystate/http';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryEventSink,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

// Serverless instances share nothing in memory: in production use paystate/postgres for the
// repository, the card vault, the credentials and the idempotency keys (docs/postgres.md).
export const events = createMemoryEventSink(); // your webhooks: createWebhookEventSink (paystate/webhooks)

export const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://shop.example/3ds/${id}/${tx}`,
  }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  events,
  options: { hostedPageUrl: ({ id, token }) => `https://shop.example/pay/${id}?token=${token}` },
});

export const PAYSTATE_TOKEN = 'shop-backend-token-change-me';

/** The v1 API under `/api` (the catch-all route `app/api/[...paystate]`): links are written under it. */
export const handler = createFetchHandler({
  engine,
  credentials: createMemoryCredentialStore({
    partners: [{ id: 'partner_shop', profiles: [{ id: 'profile_shop', name: 'The Shop' }] }],
    clients: [
      { token: PAYSTATE_TOKEN, partner_id: 'partner_shop', profile_ids: ['profile_shop'], pci_dss_compliant: false },
    ],
  }),
  idempotency: createMemoryIdempotencyStore(),
  clock: systemClock,
  basePath: '/api',
});

/** No background worker on a serverless host: the cron route sweeps. Readiness is storage alone. */
export const health = createHealthHandlers({ engine, timeoutMs: 1_500 });
