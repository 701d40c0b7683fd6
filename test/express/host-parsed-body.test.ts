import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressRouter, paystate, paystateErrorHandler } from '../../adapters/express/index.js';
import { makeApi, TOKENS } from '../http/support/api-harness.js';
import { call, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
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
