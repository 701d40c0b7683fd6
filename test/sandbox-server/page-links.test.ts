import { describe, expect, it } from 'vitest';
import {
  createMemoryCredentialStore,
  createMemoryPaymentRepository,
  createTestClock,
  type TestClock,
} from '../../adapters/memory/index.js';
import { SEALED_PAGE_LINK } from '../../adapters/http/page-link-seal.js';
import { createHmacPageTokens } from '../../adapters/node/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  createSandboxApp,
  processSandboxSecrets,
  type MemorySandboxStorage,
} from '../../adapters/sandbox-server/index.js';
import { toWebhookEvent } from '../../adapters/webhooks/index.js';
import {
  createHostedOn,
  linkOf,
  openPageOn,
  postCardOn,
  tokenLikeStrings,
  tokensThatOpen,
} from '../support/page-links.js';
import { recordingIdempotencyStore } from '../support/recording-idempotency-store.js';

/*
 * Two sandbox instances behind one address, sharing storage and secrets (decisions.md section 10):
 * a hosted page link holds a token made from the shared `page_link_secret`, so it works on either,
 * while nothing stored (the payment, the outbox, the idempotency answer) holds a token that opens
 * the page; and a link lapses once its payment has been final for a while.
 */

/** The one address both instances are reached at (`--public-url`): a test sends each request to either. */
const ORIGIN = 'http://pay.sandbox.test';
const MINUTE = 60_000;

function twoInstances(clock: TestClock = createTestClock()) {
  const { store: idempotency, completed } = recordingIdempotencyStore();
  const storage: MemorySandboxStorage = {
    repository: createMemoryPaymentRepository(),
    credentials: createMemoryCredentialStore(BUNDLED_SANDBOX_CONFIG),
    idempotency,
  };
  const secrets = processSandboxSecrets(undefined);
  const [a, b] = [1, 2].map(() => createSandboxApp({ storage, secrets, clock, baseUrl: () => ORIGIN }));
  if (a === undefined || b === undefined) throw new Error('two apps');
  return { a, b, storage, secrets, completed, clock };
}

describe('hosted page links across sandbox instances (page_link_secret)', () => {
  it('a link made on A opens and pays on B; a replay on B answers it again, byte for byte', async () => {
    const { a, b, storage, completed } = twoInstances();
    const created = await createHostedOn(a.handler, ORIGIN, 'order-1');
    expect(created.status).toBe(201);
    const link = linkOf(created.text);
    const id = String(JSON.parse(created.text).id);
    expect(link).toMatch(new RegExp(`^${ORIGIN}/pay/${id}\\?token=[A-Za-z0-9_-]{43}$`));
    expect(storage.repository.snapshot()[0]).toMatchObject({ hostedToken: null, nextRedirect: null });

    const replayed = await createHostedOn(b.handler, ORIGIN, 'order-1');
    expect(replayed).toEqual({ status: 201, replayed: 'true', text: created.text });
    const page = await openPageOn(b.handler, link);
    expect(page.status).toBe(200);
    expect(page.token).toBe(new URL(link).searchParams.get('token'));

    // The stored answer holds a placeholder, not the link.
    expect(completed).toHaveLength(1);
    const token = page.token ?? '';
    expect(completed[0]?.body).not.toContain(token);
    expect(JSON.parse(completed[0]?.body ?? '{}').next).toEqual({ redirect: SEALED_PAGE_LINK });

    const paid = await postCardOn(b.handler, link, page);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://shop.example.com/return');
    expect(storage.repository.snapshot()[0]?.state).toBe('succeeded');
    // Replayed after the payment moved on: still the first answer, with its (still working) link.
    expect(await createHostedOn(b.handler, ORIGIN, 'order-1')).toEqual({
      status: 201,
      replayed: 'true',
      text: created.text,
    });
  });

  it('the payment, its events (as webhooks send them) and the stored answer hold no token that opens the page', async () => {
    const { a, b, storage, completed, clock } = twoInstances();
    const open = await createHostedOn(a.handler, ORIGIN, 'open-1');
    const toPay = await createHostedOn(a.handler, ORIGIN, 'paid-1');
    const page = await openPageOn(b.handler, linkOf(toPay.text));
    expect((await postCardOn(b.handler, linkOf(toPay.text), page)).status).toBe(303);
    const outbox = (await storage.repository.readOutbox({ now: clock.now(), limit: 100 }))._unsafeUnwrap();
    expect(outbox.map((entry) => entry.event.type)).toEqual([
      'payment.created',
      'payment.created',
      'payment.succeeded',
    ]);
    for (const { event } of outbox) expect(event.payment.next).toBeUndefined();
    const stored = JSON.stringify({
      payments: storage.repository.snapshot(),
      outbox,
      webhooks: outbox.map(({ event }) => toWebhookEvent(event)),
      answers: completed,
    });
    const candidates = tokenLikeStrings(stored);
    expect(candidates.length).toBeGreaterThan(10);
    for (const created of [open, toPay]) {
      const id = String(JSON.parse(created.text).id);
      expect(stored).toContain(id);
      expect(stored).not.toContain(linkOf(created.text));
      expect(await tokensThatOpen(a.handler, ORIGIN, id, candidates)).toEqual([]);
      // The link itself does open it (the check above can find one).
      expect((await openPageOn(a.handler, linkOf(created.text))).status).toBe(200);
    }
  });

  it('refuses forged tokens with the page of an unknown payment', async () => {
    const { a, b, secrets } = twoInstances();
    const first = await createHostedOn(a.handler, ORIGIN);
    const second = await createHostedOn(a.handler, ORIGIN);
    const id = String(JSON.parse(first.text).id);
    const unknown = await openPageOn(b.handler, `${ORIGIN}/pay/payment_${'0'.repeat(31)}1?token=x`);
    expect(unknown.status).toBe(404);
    const forged = [
      createHmacPageTokens(processSandboxSecrets(undefined).pageLink).tokenFor(id),
      new URL(linkOf(second.text)).searchParams.get('token') ?? '',
      createHmacPageTokens(secrets.challenge).tokenFor(id),
    ];
    expect(await tokensThatOpen(b.handler, ORIGIN, id, forged)).toEqual([]);
    for (const token of forged) {
      const page = await openPageOn(b.handler, `${ORIGIN}/pay/${id}?token=${token}`);
      expect(page.text).toBe(unknown.text);
    }
    // A form posted with a forged token is refused alike, and charges nothing.
    const real = await openPageOn(b.handler, linkOf(first.text));
    const posted = await postCardOn(b.handler, linkOf(first.text), real, forged[0]);
    expect(posted.status).toBe(404);
    expect(b.acquirer.authorizations().length).toBe(0);
  });

  it('shows the result for 30 minutes after the payment is final, then the page is not found', async () => {
    const clock = createTestClock();
    const { a, b } = twoInstances(clock);
    const created = await createHostedOn(a.handler, ORIGIN);
    const link = linkOf(created.text);
    const page = await openPageOn(b.handler, link);
    expect((await postCardOn(b.handler, link, page)).status).toBe(303);
    clock.advance(30 * MINUTE);
    const within = await openPageOn(b.handler, link);
    expect(within.status).toBe(200);
    expect(within.text).toContain('Payment complete');
    const again = await postCardOn(b.handler, link, page);
    expect(again.status).toBe(200);
    await again.arrayBuffer();

    clock.advance(1);
    const lapsed = await openPageOn(b.handler, link);
    expect(lapsed.status).toBe(404);
    expect(lapsed.text).toContain('Payment page not found');
    const posted = await postCardOn(b.handler, link, page);
    expect(posted.status).toBe(404);
    expect(await posted.text()).toBe(lapsed.text);
  });
});
