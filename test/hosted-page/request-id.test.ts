import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_ASSETS } from '../../adapters/http/hosted-page/assets.js';
import { clientIpFromHeader, createHostedPageHandler } from '../../adapters/http/hosted-page/index.js';
import {
  createNodeRequestListener,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
} from '../../adapters/http/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { closeAll, listenApp, MAIN_PROFILE, RETURN_URL, withHostedPage } from '../express/support/express-host.js';
import { makeApi, TOKENS, type ApiHarness, type LogLine } from '../http/support/api-harness.js';
import { call, post, type Answer } from '../http/support/client.js';
import { hostedRequest } from '../support/requests.js';
import { collectingLogger } from './support/collecting-logger.js';
import { cardFields, createHostedPayment, formTarget, openPage, postForm } from './support/page-session.js';

/**
 * Every answer of the hosted payment page (and of the sandbox's issuer page) carries the request's
 * `Request-Id`, as the API's do; the page's log lines and the engine's lines of the commands it
 * runs (`submitCard`, `completeChallenge`) carry the same id as `requestId`.
 */

const DEFAULT_ID = /^req_[0-9a-f]{32}$/;
const FALLBACK_WARNING =
  'the requestId option gave no usable request id (1 to 200 visible ASCII characters, no card number); the default ids are used instead';
const NO_PAYMENT = `payment_${'0'.repeat(32)}`;

let sandbox: SandboxServer | undefined;
afterEach(async () => {
  await closeAll();
  await sandbox?.close();
  sandbox = undefined;
});

const idOf = (answer: Answer) => answer.headers['request-id'];

/** The sandbox server with a logger that keeps every line, parsed. */
async function startSandbox(): Promise<{ s: SandboxServer; lines: () => LogLine[] }> {
  const collected = collectingLogger();
  sandbox = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000, logger: collected.logger });
  const lines = () =>
    collected.lines.map((text) => {
      const { level, message, ...fields } = JSON.parse(text) as Record<string, unknown>;
      return { level: String(level), message: String(message), fields };
    });
  return { s: sandbox, lines };
}

describe('every answer of the hosted page and the issuer page carries a Request-Id (the sandbox server)', () => {
  it('form, HEAD, assets, 404s, 405, 413, 415, 403, 422, 303s, finished pages, 503; the issuer page; each its own', async () => {
    const { s } = await startSandbox();
    const answers: [string, Answer][] = [];
    const keep = async <A extends Answer>(name: string, pending: Promise<A>): Promise<A> => {
      const answer = await pending;
      answers.push([name, answer]);
      return answer;
    };
    const { pageUrl } = await createHostedPayment(s.url);
    const target = formTarget(pageUrl);
    const form = await keep('200 form', openPage(pageUrl));
    await keep('HEAD form', call(pageUrl, { method: 'HEAD' }));
    await keep('200 style sheet', call(`${s.url}/pay/assets/${PAGE_ASSETS.css.name}`));
    await keep('200 script', call(`${s.url}/pay/assets/${PAGE_ASSETS.js.name}`));
    await keep('404 asset', call(`${s.url}/pay/assets/page-000000000000.js`));
    await keep('404 unknown payment', openPage(`${s.url}/pay/${NO_PAYMENT}?token=${'A'.repeat(32)}`));
    await keep('404 base path', openPage(`${s.url}/pay`));
    await keep('405', call(target, { method: 'PUT', body: 'x' }));
    await keep('413', postForm(target, { holder_name: 'x'.repeat(20_000) }, undefined));
    await keep(
      '415',
      call(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: { a: 1 } }),
    );
    const fields = { token: form.token ?? '', csrf: form.csrf ?? '' };
    await keep('403 csrf', postForm(target, { ...fields, ...cardFields('4242424242424242') }, undefined));
    await keep('422 invalid', postForm(target, { ...fields, ...cardFields('4242424242424241') }, form.cookie));
    await keep('303 merchant', postForm(target, { ...fields, ...cardFields('4242424242424242') }, form.cookie));
    await keep('200 finished', openPage(pageUrl));
    await keep('200 second submit', postForm(target, { ...fields, ...cardFields('4242424242424242') }, form.cookie));
    s.repository.injectFailure('load', { code: 'unavailable', message: 'storage hiccup', retryable: false });
    await keep('503', openPage(pageUrl));

    const challenged = await createHostedPayment(s.url);
    const opened = await openPage(challenged.pageUrl);
    const toIssuer = await keep(
      '303 challenge',
      postForm(
        formTarget(challenged.pageUrl),
        { token: opened.token ?? '', csrf: opened.csrf ?? '', ...cardFields('4000000000003220') },
        opened.cookie,
      ),
    );
    const issuerUrl = String(toIssuer.headers['location']);
    const issuer = await keep('issuer 200', openPage(issuerUrl));
    await keep('issuer 405', call(issuerUrl, { method: 'PUT', body: 'x' }));
    await keep('issuer 403', postForm(issuerUrl, { csrf: issuer.csrf ?? '', decision: 'authorise' }, undefined));
    await keep('issuer 404', openPage(`${s.url}/sandbox/issuer/challenge/${NO_PAYMENT}/threeds_1`));
    await keep('issuer 303', postForm(issuerUrl, { csrf: issuer.csrf ?? '', decision: 'authorise' }, issuer.cookie));
    await keep('issuer ended', openPage(issuerUrl));
    await keep('302 to the reference', call(`${s.url}/`));

    expect(answers.map(([name, answer]) => `${name}: ${answer.status}`)).toEqual([
      '200 form: 200',
      'HEAD form: 200',
      '200 style sheet: 200',
      '200 script: 200',
      '404 asset: 404',
      '404 unknown payment: 404',
      '404 base path: 404',
      '405: 405',
      '413: 413',
      '415: 415',
      '403 csrf: 403',
      '422 invalid: 422',
      '303 merchant: 303',
      '200 finished: 200',
      '200 second submit: 200',
      '503: 503',
      '303 challenge: 303',
      'issuer 200: 200',
      'issuer 405: 405',
      'issuer 403: 403',
      'issuer 404: 404',
      'issuer 303: 303',
      'issuer ended: 200',
      '302 to the reference: 302',
    ]);
    for (const [name, answer] of answers) expect(idOf(answer), name).toMatch(DEFAULT_ID);
    expect(new Set(answers.map(([, answer]) => idOf(answer))).size).toBe(answers.length);
  });

  it("the page's and the engine's lines of a card submission and of a challenge answer carry the answer's id", async () => {
    const { s, lines } = await startSandbox();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const submitted = await postForm(
      formTarget(pageUrl),
      { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4000000000003220') },
      page.cookie,
    );
    expect(submitted.status).toBe(303);
    const issuerUrl = String(submitted.headers['location']);
    const issuer = await openPage(issuerUrl);
    const decided = await postForm(issuerUrl, { csrf: issuer.csrf ?? '', decision: 'authorise' }, issuer.cookie);
    expect(decided.status).toBe(303);
    const withId = (answer: Answer) => lines().filter((line) => line.fields['requestId'] === idOf(answer));

    const of = (answer: Answer) => withId(answer).map((line) => [line.message, line.fields['command'] ?? null]);
    expect(of(page)).toContainEqual(['hosted page', null]);
    expect(of(submitted)).toEqual(
      expect.arrayContaining([
        ['hosted page', null],
        ['payment state changed', null],
        ['command done', 'submitCard'],
      ]),
    );
    expect(of(decided)).toEqual(
      expect.arrayContaining([
        ['sandbox issuer', null],
        ['payment state changed', null],
        ['command done', 'completeChallenge'],
      ]),
    );
    // Every line of those commands carries it: none of them without.
    const commandLines = lines().filter((line) =>
      ['submitCard', 'completeChallenge'].includes(String(line.fields['command'])),
    );
    expect(commandLines).toHaveLength(2);
    for (const line of commandLines) expect(line.fields['requestId']).toMatch(DEFAULT_ID);
    const pageLines = lines().filter((line) => ['hosted page', 'sandbox issuer'].includes(line.message));
    for (const line of pageLines) expect(line.fields['requestId'], JSON.stringify(line)).toMatch(DEFAULT_ID);
    expect(await s.engine.getPaymentRecord(payment.id)).toMatchObject({ value: { state: 'succeeded' } });
  });
});

/** The harness's API and the hosted page behind an entry point, over a real socket. */
const ENTRY_POINTS: readonly (readonly [string, (options: FetchHandlerOptions) => Parameters<typeof listenApp>[0]])[] =
  [
    ['createNodeListener', (options) => createNodeListener(options)],
    ['createFetchHandler (bridged)', (options) => createNodeRequestListener(createFetchHandler(options))],
  ];

/** A hosted payment created through `origin`, and its page URL there. */
async function hostedPageOn(origin: string): Promise<{ paymentId: string; pageUrl: string }> {
  const created = await post(
    `${origin}/v1/profiles/${MAIN_PROFILE}/payments`,
    TOKENS.alphaHosted,
    hostedRequest({ session: { redirect_url: RETURN_URL } }),
  );
  expect(created.status).toBe(201);
  const redirect = new URL(String(created.json.next.redirect));
  return { paymentId: String(created.json.id), pageUrl: `${origin}${redirect.pathname}${redirect.search}` };
}

/** Opens the page at `pageUrl` and pays with `card`; the answers and the log lines each request wrote. */
async function pay(api: ApiHarness, pageUrl: string, card: string) {
  let from = api.logs.length;
  const page = await openPage(pageUrl);
  const pageLines = api.logs.slice(from);
  from = api.logs.length;
  const answer = await postForm(
    formTarget(pageUrl),
    { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields(card) },
    page.cookie,
  );
  return { page, pageLines, answer, lines: api.logs.slice(from) };
}

describe.each(ENTRY_POINTS)('the hosted page as pages of %s', (_name, build) => {
  it("the answers carry the entry point's ids, and every engine line of submitCard carries the POST's", async () => {
    const api = makeApi();
    let n = 0;
    const origin = await listenApp(build({ ...withHostedPage(api), requestId: () => `host-id:${++n}` }));
    const { pageUrl } = await hostedPageOn(origin);
    const { page, pageLines, answer, lines } = await pay(api, pageUrl, '4242424242424242');
    expect(answer.status).toBe(303);
    // host-id:1 was the create.
    expect([idOf(page), idOf(answer)]).toEqual(['host-id:2', 'host-id:3']);
    expect(pageLines.filter((line) => line.message === 'hosted page').map((line) => line.fields['requestId'])).toEqual([
      'host-id:2',
    ]);
    const messages = lines.filter((line) => line.fields['requestId'] === 'host-id:3').map((line) => line.message);
    expect(messages).toEqual(
      expect.arrayContaining(['port call', 'payment state changed', 'command done', 'hosted page']),
    );
    expect(lines.find((line) => line.fields['command'] === 'submitCard')?.fields['requestId']).toBe('host-id:3');
    // Every other line of the POST names that id too, the token check's getHostedPageRecord included.
    expect(
      lines
        .filter((line) => line.fields['requestId'] !== 'host-id:3')
        .map((line) => [line.message, line.fields['port'] ?? line.fields['command']]),
    ).toEqual([]);
    expect(
      lines
        .filter((line) => line.fields['command'] === 'getHostedPageRecord')
        .map((line) => [line.message, line.fields['requestId']]),
    ).toEqual([['command done', 'host-id:3']]);
  });

  it('404 and 405 of the page, an asset and a 422 carry new default ids', async () => {
    const api = makeApi();
    const origin = await listenApp(build(withHostedPage(api)));
    const { pageUrl } = await hostedPageOn(origin);
    const { answer: invalid } = await pay(api, pageUrl, '4242424242424241');
    expect(invalid.status).toBe(422);
    const answers = [
      invalid,
      await call(`${origin}/pay/${NO_PAYMENT}?token=x`),
      await call(formTarget(pageUrl), { method: 'DELETE' }),
      await call(`${origin}/pay/assets/${PAGE_ASSETS.css.name}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([422, 404, 405, 200]);
    for (const answer of answers) expect(idOf(answer)).toMatch(DEFAULT_ID);
    expect(new Set(answers.map(idOf)).size).toBe(answers.length);
  });
});

describe('the hosted page mounted alone (createHostedPageHandler, no PageContext)', () => {
  /** The page alone behind the generic fetch bridge: what a host serving only the page runs. */
  async function alone(api: ApiHarness, requestId?: () => string) {
    const pages = createHostedPageHandler({
      engine: api.engine,
      credentials: api.credentials,
      clock: api.clock,
      csrfSecret: 'alone-test-csrf-secret-of-at-least-32-chars',
      clientIp: clientIpFromHeader,
      logger: api.handlerOptions.logger ?? { debug() {}, info() {}, warn() {}, error() {} },
      ...(requestId !== undefined && { requestId }),
    });
    const pageOrigin = await listenApp(
      createNodeRequestListener(async (request) => (await pages(request)) ?? new Response(null, { status: 418 })),
    );
    // The API elsewhere creates the payment; the page is served on its own origin.
    const apiOrigin = await listenApp(createNodeListener(api.handlerOptions));
    const { pageUrl } = await hostedPageOn(apiOrigin);
    return { pageUrl: pageUrl.replace(apiOrigin, pageOrigin), pageOrigin };
  }

  it("makes its own ids: on every answer, on its lines and on the engine's lines of submitCard", async () => {
    const api = makeApi();
    const { pageUrl, pageOrigin } = await alone(api);
    const { page, pageLines, answer, lines } = await pay(api, pageUrl, '4242424242424242');
    expect(answer.status).toBe(303);
    const others = [await call(`${pageOrigin}/pay/assets/${PAGE_ASSETS.js.name}`), await call(`${pageOrigin}/pay/x/y`)];
    expect(others.map((other) => other.status)).toEqual([200, 404]);
    // What the page does not serve is the host's: no id of the page.
    expect(idOf(await call(`${pageOrigin}/elsewhere`))).toBeUndefined();
    const all = [page, answer, ...others];
    for (const each of all) expect(idOf(each)).toMatch(DEFAULT_ID);
    expect(new Set(all.map(idOf)).size).toBe(all.length);
    expect(pageLines.find((line) => line.message === 'hosted page')?.fields['requestId']).toBe(idOf(page));
    const submitCard = lines.filter((line) => line.fields['command'] === 'submitCard');
    expect(submitCard.map((line) => line.fields['requestId'])).toEqual([idOf(answer)]);
    expect(lines.find((line) => line.message === 'hosted page')?.fields['requestId']).toBe(idOf(answer));
  });

  it("takes the host's requestId option, and falls back to the default, with one warning, for a bad one", async () => {
    const good = makeApi();
    let n = 0;
    const { pageUrl } = await alone(good, () => `page-${++n}`);
    const paid = await pay(good, pageUrl, '4242424242424242');
    expect([idOf(paid.page), idOf(paid.answer)]).toEqual(['page-1', 'page-2']);
    expect(paid.lines.filter((line) => line.fields['command'] === 'submitCard')[0]?.fields['requestId']).toBe('page-2');

    const bad = makeApi();
    const { pageUrl: badUrl } = await alone(bad, () => 'req_4242424242424242');
    const fallen = await pay(bad, badUrl, '4242424242424242');
    expect(fallen.answer.status).toBe(303);
    for (const answer of [fallen.page, fallen.answer]) expect(idOf(answer)).toMatch(DEFAULT_ID);
    const warnings = bad.logs.filter((line) => line.message === FALLBACK_WARNING);
    expect(warnings.map((line) => line.fields)).toEqual([{ reason: 'holds a card number', length: 20 }]);
    expect(JSON.stringify(bad.logs)).not.toContain('4242424242424242');
  });
});

describe('createHostedPageHandler given a PageContext', () => {
  it("runs under the context's id (shown as the engine shows it) and leaves the header to the caller", async () => {
    const api = makeApi();
    const pages = createHostedPageHandler({
      engine: api.engine,
      credentials: api.credentials,
      clock: api.clock,
      csrfSecret: 'context-test-csrf-secret-of-at-least-32-chars',
      clientIp: clientIpFromHeader,
      ...(api.handlerOptions.logger !== undefined && { logger: api.handlerOptions.logger }),
      requestId: () => 'never-used',
    });
    const created = await createFetchHandler(api.handlerOptions)(
      new Request(`http://shop.test/v1/profiles/${MAIN_PROFILE}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.alphaHosted}`, 'content-type': 'application/json' },
        body: JSON.stringify(hostedRequest()),
      }),
    );
    const pageUrl = String(((await created.json()) as { next: { redirect: string } }).next.redirect);
    const viewed = await pages(new Request(pageUrl), { requestId: 'ctx-1' });
    const unsafe = await pages(new Request(pageUrl), { requestId: 'req_4242424242424242' });
    expect([viewed?.status, unsafe?.status]).toEqual([200, 200]);
    expect([viewed?.headers.get('request-id'), unsafe?.headers.get('request-id')]).toEqual([null, null]);
    const pageLines = api.logs.filter((line) => line.message === 'hosted page');
    expect(pageLines.map((line) => line.fields['requestId'])).toEqual(['ctx-1', '[redacted]']);
    expect(JSON.stringify(api.logs)).not.toContain('4242424242424242');
  });
});
