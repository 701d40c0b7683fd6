import { connect } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { paystate } from '../../adapters/http/express/index.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type RunningServer } from './support/api-harness.js';

const LIST = '/v1/profiles/profile_alpha_main/payments?limit=1';

/** A GET with these header lines, sent as they are (node's client would merge or refuse some). */
function rawGet(
  origin: string,
  path: string,
  lines: readonly string[],
): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head: head.toLowerCase(), body });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  });
}

const PAIRS: readonly (readonly [string, readonly string[]])[] = [
  ['a valid token, then an invalid one', [`Bearer ${TOKENS.alphaHosted}`, 'Bearer tok_nobody']],
  ['an invalid token, then a valid one', ['Bearer tok_nobody', `Bearer ${TOKENS.alphaHosted}`]],
  ['two valid tokens of different clients', [`Bearer ${TOKENS.alphaHosted}`, `Bearer ${TOKENS.alphaCompliant}`]],
  ['the same valid token twice', [`Bearer ${TOKENS.alphaHosted}`, `Bearer ${TOKENS.alphaHosted}`]],
];

describe.each(SERVER_KINDS)('two Authorization headers, served by %s', (kind) => {
  let running: RunningServer | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it.each(PAIRS)('%s: 401 invalid_token, without asking the credential store', async (_name, values) => {
    const api = makeApi();
    running = await serve(kind, api);
    const answer = await rawGet(
      `http://127.0.0.1:${running.port}`,
      `${running.basePath}${LIST}`,
      values.map((value) => `Authorization: ${value}`),
    );
    expect({ status: answer.status, code: JSON.parse(answer.body).code }).toEqual({
      status: 401,
      code: 'unauthorized',
    });
    expect(answer.head).toContain('www-authenticate: bearer realm="paystate", error="invalid_token"');
    expect([...api.calls.counts.keys()]).toEqual([]);
  });
});

describe('paystate() and a host middleware that presents the token', () => {
  afterEach(closeAll);

  it('takes the Authorization the middleware set, whatever the client sent', async () => {
    const api = makeApi();
    const app = express();
    app.use('/payments', (req, _res, next) => {
      req.headers.authorization = `Bearer ${TOKENS.alphaHosted}`;
      next();
    });
    app.use('/payments', paystate(api.handlerOptions));
    const origin = await listenApp(app);
    const answer = await rawGet(origin, `/payments${LIST}`, [
      'Authorization: Bearer tok_nobody',
      'Authorization: Bearer x',
    ]);
    expect(answer.status).toBe(200);
  });
});
