import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readNodeBody } from '../../adapters/http/read-body.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type RunningServer } from './support/api-harness.js';

/** A server that answers what `readNodeBody(req, limit)` gave: the body's text, or the failure. */
async function bodyServer(limit: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req: IncomingMessage, res) => {
    void readNodeBody(req, limit).then((result) => {
      res.setHeader('connection', 'close');
      res.end(result.isOk() ? `ok:${Buffer.from(result.value).toString('utf8')}` : `err:${result.error}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Writes `parts` to a raw socket, `gapMs` apart, and reads the answer's body. */
function send(port: number, parts: readonly string[], gapMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
    socket.on('error', reject);
    parts.forEach((part, i) => setTimeout(() => socket.write(part), i * gapMs));
  });
}

const head = (framing: string) => `POST / HTTP/1.1\r\nHost: x\r\n${framing}\r\n\r\n`;
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

describe('readNodeBody over a socket', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

  it('reads a body that came whole with its head, and one that comes in pieces', async () => {
    const running = await bodyServer(64);
    server = running.server;
    const body = '{"amount":1999,"note":"é"}';
    const framing = `Content-Length: ${Buffer.byteLength(body)}`;
    expect(await send(running.port, [head(framing) + body], 0)).toBe(`ok:${body}`);
    expect(await send(running.port, [head(framing) + body.slice(0, 5), body.slice(5)], 60)).toBe(`ok:${body}`);
    const chunked = [head('Transfer-Encoding: chunked'), chunk(body.slice(0, 9)), chunk(body.slice(9)), '0\r\n\r\n'];
    expect(await send(running.port, chunked, 40)).toBe(`ok:${body}`);
    expect(await send(running.port, [chunked.join('')], 0)).toBe(`ok:${body}`);
  });

  it('refuses a chunked body over the limit, whole or in pieces, and an empty body reads empty', async () => {
    const running = await bodyServer(16);
    server = running.server;
    const big = 'x'.repeat(12);
    const chunked = [head('Transfer-Encoding: chunked'), chunk(big), chunk(big), '0\r\n\r\n'];
    expect(await send(running.port, [chunked.join('')], 0)).toBe('err:too_large');
    expect(await send(running.port, chunked, 40)).toBe('err:too_large');
    expect(await send(running.port, [head('Content-Length: 0')], 0)).toBe('ok:');
  });
});

describe('creates on one keep-alive connection, served by node:http', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('keeps the connection open after each create, whose body was read whole', async () => {
    running = await serve('node:http', makeApi());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify(hostedRequest());
    const sockets = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = httpRequest(
          `http://127.0.0.1:${running?.port}/v1/profiles/profile_alpha_main/payments`,
          {
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${TOKENS.alphaHosted}`, 'content-type': 'application/json' },
          },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer).toEqual({ status: 201, connection: 'keep-alive' });
    }
    expect(sockets.size).toBe(1);
    agent.destroy();
  });
});
