import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { get, post } from '../http/support/client.js';
import { hostedRequest } from '../support/requests.js';
import { collectingLogger } from './support/collecting-logger.js';
import { cardFields, createHostedPayment, HOSTED_TOKEN, payOnPage } from './support/page-session.js';

let server: SandboxServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The 303 after the card page sends `session.redirect_url` serialized (percent-encoded UTF-8): 9
// characters for each of 返 and 12 for each emoji. 2048 such characters once made a Location
// header of 18-24 KB, over Node's 16 KiB header limit (and nginx's default proxy buffers), after
// the card had been charged. The 2048 limit now holds for the encoded form as well.
describe('a session.redirect_url whose percent-encoded form is long', () => {
  const base = 'https://shop.example/';

  it.each([
    ['BMP characters', base + '返'.repeat(2048 - base.length)],
    ['emoji', base + '😀'.repeat(2048 - base.length)],
  ])('is refused when the payment is created, before any card is charged: %s', async (_, url) => {
    server = await startSandboxServer({ port: 0, logger: collectingLogger().logger });
    const created = await post(
      `${server.url}/v1/profiles/profile_webshop/payments`,
      HOSTED_TOKEN,
      hostedRequest({ session: { redirect_url: url } }),
    );
    expect(created.status).toBe(400);
    expect(created.json).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'session.redirect_url', message: expect.stringMatching(/percent-encoded/) as unknown }],
    });
  });

  it('is accepted up to the limit, and the redirect after payment can be read by an HTTP client', async () => {
    server = await startSandboxServer({ port: 0, logger: collectingLogger().logger });
    const url = base + '返'.repeat(225);
    expect(new URL(url).href.length).toBeLessThanOrEqual(2048);
    const { payment, pageUrl } = await createHostedPayment(server.url, url);
    expect(payment.session.redirect_url).toBe(url);
    const { answer } = await payOnPage(pageUrl, cardFields('4242424242424242'));
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(new URL(url).href);
    const after = (await get(`${server.url}${payment._links.self.href}`, HOSTED_TOKEN)).json as { state: string };
    expect(after.state).toBe('succeeded');
  });
});
