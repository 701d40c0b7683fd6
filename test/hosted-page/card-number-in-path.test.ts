import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../adapters/sandbox-server/index.js';
import { collectingLogger } from './support/collecting-logger.js';

/** The hosted page on the sandbox, with a logger that keeps every call unredacted. */
function sandbox() {
  const { logger, lines } = collectingLogger();
  const app = createSandboxApp({ baseUrl: () => 'http://sandbox.test', logger });
  return { app, lines };
}

describe('a card number in the path of a form post (found by a reviewing helper)', () => {
  it.each([
    ['whole', '4242424242424242'],
    ['in groups of four, with dots', '4242.4242.4242.4242'],
    ['in full-width digits', '４２４２４２４２４２４２４２４２'],
  ])('is not logged when the form cannot be read: %s', async (_, number) => {
    const { app, lines } = sandbox();
    for (const [type, body] of [
      ['text/plain', 'number=4242424242424242'],
      ['application/x-www-form-urlencoded', 'x'.repeat(20_000)],
    ] as const) {
      const answer = await app.handler(
        new Request(`http://sandbox.test/pay/${encodeURIComponent(number)}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        }),
      );
      expect([413, 415]).toContain(answer.status);
    }
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain(number);
    expect(lines.join('\n')).toContain('"paymentId":"[redacted]"');
  });

  it('a payment id that cannot hold a card number is still logged as it is', async () => {
    const { app, lines } = sandbox();
    const id = 'payment_0123456789abcdef0123456789abcdef';
    await app.handler(
      new Request(`http://sandbox.test/pay/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      }),
    );
    expect(lines.join('\n')).toContain(`"paymentId":"${id}"`);
  });
});
