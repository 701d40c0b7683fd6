import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressRouter, paystate, paystateErrorHandler } from '../../adapters/http/express/index.js';
import { makeApi, TOKENS } from '../http/support/api-harness.js';
import { call, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { parseFormBody } from '../../adapters/http/hosted-page/form-body.js';
import { cardFields, formTarget, openPage } from '../hosted-page/support/page-session.js';
import { hostedRequest } from '../support/requests.js';
import {
  closeAll,
  listenApp,
  MAIN_PROFILE,
  payOnHostedPage,
  RETURN_URL,
  withHostedPage,
} from './support/express-host.js';

afterEach(closeAll);

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A fetch handler behind `parser` that answers the body it was handed, as text. */
async function echoBehind(parser: express.RequestHandler): Promise<string> {
  const app = express();
  app.use(parser);
  app.use(createExpressRouter(async (request) => new Response(await request.text())));
  app.use(paystateErrorHandler());
  return listenApp(app);
}

describe('the hosted page behind a host form parser', () => {
  it.each([
    ['express.urlencoded()', express.urlencoded()],
    ['express.urlencoded({ extended: true })', express.urlencoded({ extended: true })],
  ])('takes the card form posted through %s', async (_name, parser) => {
    const api = makeApi();
    const app = express();
    app.use(parser);
    app.use('/shop', paystate(withHostedPage(api)));
    const origin = await listenApp(app);
    const paid = await payOnHostedPage(`${origin}/shop`);
    expect({ status: paid.status, location: paid.location }).toEqual({ status: 303, location: RETURN_URL });
    expect((await api.engine.getPaymentRecord(paid.paymentId))._unsafeUnwrap().state).toBe('succeeded');
  });
});

describe('a form body the host parsed is encoded again as a form', () => {
  it('keeps repeated fields and writes nested ones (extended) in bracket notation', async () => {
    const origin = await echoBehind(express.urlencoded({ extended: true }));
    const sent = 'token=t%2Bk%20n&x=1&x=2&a[b]=c&a[d][e]=f&list[0][k]=v&empty=';
    const echoed = await call(`${origin}/echo`, { method: 'POST', headers: FORM, body: sent });
    expect([...new URLSearchParams(echoed.text)]).toEqual([
      ['token', 't+k n'],
      ['x', '1'],
      ['x', '2'],
      ['a[b]', 'c'],
      ['a[d][e]', 'f'],
      ['list[0][k]', 'v'],
      ['empty', ''],
    ]);
  });

  it('refuses a form nested deeper than it puts back together, as a problem through paystateErrorHandler', async () => {
    // body-parser 2 takes `depth` (default 32); its type definitions do not list it yet.
    const deepOptions = { extended: true, depth: 100 };
    const origin = await echoBehind(express.urlencoded(deepOptions));
    const key = `a${'[b]'.repeat(40)}`;
    const answer = await call(`${origin}/echo`, { method: 'POST', headers: FORM, body: `${key}=1` });
    expectProblem(answer, 400, 'validation_failed');
  });
});

const FORM_PARSERS = [
  ['express.urlencoded({ extended: false })', express.urlencoded({ extended: false })],
  ['express.urlencoded({ extended: true })', express.urlencoded({ extended: true })],
] as const;

/** The form parsers, and none (paystate reads the body itself). */
const WITH_AND_WITHOUT: readonly (readonly [string, express.RequestHandler | undefined])[] = [
  ['without a host parser', undefined],
  ...FORM_PARSERS,
];

/**
 * Creates a hosted payment through `base` and posts its card form with `holderName` written into
 * the body as it is (escapes and all), as a client of another charset would send it.
 */
async function postHolderName(base: string, holderName: string) {
  const created = await post(
    `${base}/v1/profiles/${MAIN_PROFILE}/payments`,
    TOKENS.alphaHosted,
    hostedRequest({ session: { redirect_url: RETURN_URL } }),
  );
  const redirect = new URL(created.json.next.redirect as string);
  const pageUrl = `${base}${redirect.pathname}${redirect.search}`;
  const page = await openPage(pageUrl);
  const fields = new URLSearchParams({
    token: page.token ?? '',
    csrf: page.csrf ?? '',
    ...cardFields('4242424242424242'),
  });
  fields.delete('holder_name');
  const answer = await call(formTarget(pageUrl), {
    method: 'POST',
    headers: { ...FORM, accept: 'text/html', 'user-agent': 'PageTest/1.0', cookie: page.cookie ?? '' },
    body: `${fields.toString()}&holder_name=${holderName}`,
  });
  return { answer, paymentId: created.json.id as string };
}

describe('form text that was not UTF-8, behind a host form parser (found by a reviewer)', () => {
  it.each(WITH_AND_WITHOUT)(
    'the hosted page refuses a holder name that is not UTF-8 (%s): 422, nothing stored, nothing authorized',
    async (_name, parser) => {
      const api = makeApi();
      const app = express();
      if (parser !== undefined) app.use(parser);
      app.use('/shop', paystate(withHostedPage(api)));
      const { answer, paymentId } = await postHolderName(`${await listenApp(app)}/shop`, 'Zo%EB+Lovelace');
      expect(answer.status).toBe(422);
      const record = (await api.engine.getPaymentRecord(paymentId))._unsafeUnwrap();
      expect(record.state).toBe('awaiting_card_data');
      expect(record.card).toBeNull();
      expect(api.acquirer.authorizations()).toEqual([]);
    },
  );

  it.each(WITH_AND_WITHOUT)('the hosted page takes a holder name sent as UTF-8 escapes (%s)', async (_name, parser) => {
    const api = makeApi();
    const app = express();
    if (parser !== undefined) app.use(parser);
    app.use('/shop', paystate(withHostedPage(api)));
    const { answer, paymentId } = await postHolderName(`${await listenApp(app)}/shop`, 'Zo%C3%AB+Lovelace');
    expect(answer.status).toBe(303);
    const record = (await api.engine.getPaymentRecord(paymentId))._unsafeUnwrap();
    expect(record.state).toBe('succeeded');
    expect(record.card?.holder_name).toBe('Zo\u00eb Lovelace');
  });

  it.each(FORM_PARSERS)(
    'hands on what the page would read from the raw body: an escaped percent sign as it came, text that was not UTF-8 as not UTF-8 (%s)',
    async (_name, parser) => {
      const origin = await echoBehind(parser);
      // `100%25` and `%2541` are a literal `100%` and `%41`, which qs decodes; `%EB` and the cut-off
      // `%E2%82` are not UTF-8, and qs keeps them as they came; so is the name `bad%EB`.
      const sent = 'pct=100%25&escaped=%2541&name=Zo%C3%AB+L&bad=Zo%EB+Lovelace&cut=%E2%82&bad%EB=x';
      const echoed = await call(`${origin}/echo`, { method: 'POST', headers: FORM, body: sent });
      expect(echoed.text).toBe('pct=100%25&escaped=%2541&name=Zo%C3%AB+L&bad=%FF&cut=%FF');
      const direct = parseFormBody(new TextEncoder().encode(sent));
      const handedOn = parseFormBody(new TextEncoder().encode(echoed.text));
      expect([...handedOn.fields]).toEqual([...direct.fields]);
      expect([...handedOn.unreadable]).toEqual([...direct.unreadable]);
      expect([...direct.unreadable]).toEqual(['bad', 'cut']);
    },
  );
});

describe('a JSON string body the host parsed (express.json({ strict: false }))', () => {
  it.each([
    ['without a host parser', undefined],
    ['behind express.json({ strict: false })', express.json({ strict: false })],
  ])('is a string, not JSON text: 400 validation_failed %s', async (_name, parser) => {
    const api = makeApi();
    const app = express();
    if (parser !== undefined) app.use(parser);
    app.use(paystate(api.handlerOptions));
    app.use(paystateErrorHandler());
    const origin = await listenApp(app);
    const asString = JSON.stringify(JSON.stringify(hostedRequest()));
    const answer = await post(`${origin}/v1/profiles/${MAIN_PROFILE}/payments`, TOKENS.alphaHosted, asString);
    expectProblem(answer, 400, 'validation_failed');
    expect(api.repository.size()).toBe(0);
  });
});
