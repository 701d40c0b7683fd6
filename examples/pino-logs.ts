/**
 * paystate's logs as JSON lines, through the host's own pino: `createPinoLogger` hands pino every
 * line paystate writes with card numbers and card-data fields already scrubbed, and the host can
 * log through the same adapter to get the same protection.
 * Run it: `npx tsx examples/pino-logs.ts`. Guide: docs/guides/logging.md.
 */
import { pino } from 'pino';
import { createPaymentEngine, type Client } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository } from 'paystate/memory';
import { createConsoleLogger, createCryptoIdGenerator, createPinoLogger, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

// The host's pino, configured as it likes (here: debug, ISO times, stdout written in order). Wrap
// it; never pass it bare.
const logger = createPinoLogger(
  pino(
    { level: 'debug', base: { service: 'checkout' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: 1, sync: true }),
  ),
);

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
  logger, // a line per command and per port call at debug; failures at info and above
  options: { hostedPageUrl: ({ id, token }) => `https://pay.example/pay/${id}?token=${token}` },
});

const shop: Client = { id: 'client_shop', partnerId: 'partner_1', profileIds: ['profile_1'], pciDssCompliant: true };
const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
};
const body = {
  method: 'creditcard',
  currency: 'EUR',
  amount: 1999,
  billing: ada,
  shipping: ada,
  session: { redirect_url: 'https://shop.example/return' },
  creditcard: { number: '4242424242424242', cvc: '123', expiration: '2030-12-01T00:00:00.000Z', holder_name: 'Ada' },
  user: {
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
  },
};

const payment = await engine.createPayment({ client: shop, profileId: 'profile_1', body });
payment.match(
  ({ id, state }) => logger.info({ paymentId: id, state }, 'payment created'),
  ({ code }) => logger.error({ code }, 'payment refused'),
);

// A careless line of the host's own: the card number and CVC never reach pino's output.
logger.warn({ request: { body } }, `retrying checkout for card 4242 4242 4242 4242`);

// Without pino: the bundled logger writes the same kind of line.
createConsoleLogger({ format: 'json', level: 'info' }).info({ card: '4242-4242-4242-4242' }, 'bundled JSON line');
