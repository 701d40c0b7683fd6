import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { paystate } from '../../adapters/http/express/index.js';
import { makeApi } from '../http/support/api-harness.js';
import { call } from '../http/support/client.js';
import { closeAll, listenApp, payOnHostedPage, RETURN_URL, withHostedPage } from './support/express-host.js';

afterEach(closeAll);

/** paystate() with the hosted page, mounted at the root before the host's own body parsers. */
function hostBehindPaystate() {
  const api = makeApi();
  const app = express();
  app.use(paystate(withHostedPage(api)));
  app.post('/orders', express.json(), (req, res) => {
    res.status(201).json({ hostGot: req.body });
  });
  app.post('/upload', express.raw({ type: '*/*', limit: '5mb' }), (req, res) => {
    const body: unknown = req.body;
    res.json({ bytes: Buffer.isBuffer(body) ? body.length : null, last: Buffer.isBuffer(body) ? body.at(-1) : null });
  });
  return { api, app };
}

describe('paystate() with pages, before the host routes', () => {
  it('passes a request the pages do not own on with its JSON body unread', async () => {
    const origin = await listenApp(hostBehindPaystate().app);
    const answer = await call(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { order: 42, lines: ['a', 'b'] },
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ hostGot: { order: 42, lines: ['a', 'b'] } });
  });

  it.each([
    ['a small body', 20],
    ['a body over the fetch stream buffer (300 kB)', 300_000],
    ['a chunked body (300 kB)', -300_000],
  ])('leaves %s whole for the host parser', async (_name, size) => {
    const origin = await listenApp(hostBehindPaystate().app);
    const bytes = new Uint8Array(Math.abs(size)).fill(97);
    bytes[bytes.length - 1] = 98;
    const answer = await call(`${origin}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
      chunked: size < 0,
    });
    expect(answer.json).toEqual({ bytes: Math.abs(size), last: 98 });
  });

  it('serves several passed-on posts on one kept-alive connection, and still reads the page form itself', async () => {
    const origin = await listenApp(hostBehindPaystate().app);
    for (let order = 1; order <= 3; order++) {
      const answer = await call(`${origin}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: { order },
      });
      expect(answer.json).toEqual({ hostGot: { order } });
      expect(answer.headers['connection']).not.toBe('close');
    }
    const paid = await payOnHostedPage(origin);
    expect({ status: paid.status, location: paid.location }).toEqual({ status: 303, location: RETURN_URL });
  });
});
