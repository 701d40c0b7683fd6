import {
  createMemoryCardVault,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../../../adapters/memory/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../../adapters/sandbox/index.js';
import { createWebhookEventSink, type WebhookEventSinkOptions } from '../../../adapters/webhooks/index.js';
import { createPaymentEngine, type PaymentEngineOptions } from '../../../src/index.js';
import { challengeAnswerFor, CHALLENGE_SECRET } from '../../support/engine-harness.js';

/** A secret of the required length, for tests. */
export const SECRET = 'whsec_test_secret_0123456789abcdefghijklmnop';
/** Another, for rotation. */
export const NEXT_SECRET = 'whsec_next_secret_0123456789abcdefghijklmnop';

type LogLine = { level: string; fields: Record<string, unknown>; message: string };

/**
 * An engine on the memory adapters and the sandbox simulators, with a hand-driven clock, whose event
 * sink is a webhook sink (`SECRET`, `http:` and the receiver on 127.0.0.1 allowed) with `sink`
 * options on top.
 */
export function makeWebhookEngine(
  sink: Partial<WebhookEventSinkOptions> & Pick<WebhookEventSinkOptions, 'url'>,
  options: PaymentEngineOptions = {},
) {
  const clock = createTestClock();
  const events = createWebhookEventSink({
    secrets: SECRET,
    clock,
    allowInsecureHttp: true,
    allowPrivateNetworks: true,
    ...sink,
  });
  const logs: LogLine[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => {
    logs.push({ level, fields, message });
  };
  const engine = createPaymentEngine({
    repository: createMemoryPaymentRepository(),
    acquirer: createSandboxAcquirer(),
    threeDS: createSandboxThreeDSProvider({
      secret: CHALLENGE_SECRET,
      challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
    }),
    cardVault: createMemoryCardVault(clock),
    clock,
    ids: createSequentialIdGenerator(),
    events,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    options: { retries: 0, ...options },
  });
  return { engine, clock, events, logs, challengeAnswer: challengeAnswerFor(engine, CHALLENGE_SECRET) };
}
