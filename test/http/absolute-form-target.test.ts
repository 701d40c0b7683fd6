import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRequestListener } from '../../adapters/http/index.js';
import { makeApi, serve, TOKENS, type RunningServer, type ServerKind } from './support/api-harness.js';

const LIST = '/v1/profiles/profile_alpha_main/payments';

/** Writes raw bytes (ending in `Connection: close`) and reads until the server closes. */
function raw(port: number, bytes: string): Promise<{ readonly status: number; readonly text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text }));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('the fetch bridge and an absolute-form target', () => {
  it('builds the Request URL from the Host header and the path and query of the target', async () => {
    const server = createServer(
      createNodeRequestListener(
        async (request) => new Response(request.url, { headers: { 'content-length': String(request.url.length) } }),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const urlOf = async (target: string, host: string) => {
      const answer = await raw(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      return answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
    };
    try {
      expect(await urlOf('http://elsewhere.test:8080/v1/x?a=1', 'shop.test')).toBe('http://shop.test/v1/x?a=1');
      expect(await urlOf('/v1/x?a=1', 'shop.test')).toBe('http://shop.test/v1/x?a=1');
      expect(await urlOf('http://elsewhere.test', 'shop.test:81')).toBe('http://shop.test:81/');
      expect(await urlOf('http://elsewhere.test/x', 'x:99999')).toBe('http://localhost/x');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

const KINDS: readonly ServerKind[] = ['node:http', 'node:http + fetch bridge'];

describe.each(KINDS)('absolute-form request targets (%s)', (kind) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(kind, makeApi());
  });
  afterAll(async () => {
    await server.close();
  });

  const request = (method: string, target: string, host: string) =>
    `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKENS.alphaHosted}\r\n` +
    'Accept: application/json\r\nConnection: close\r\n\r\n';

  it('answers an absolute-form target as its origin form', async () => {
    const host = `127.0.0.1:${server.port}`;
    for (const [target, status] of [
      [`http://${host}${LIST}`, 200],
      [`http://${host}${LIST}?limit=2`, 200],
      [LIST, 200],
      [`http://${host}/v1/nowhere`, 404],
      ['/v1/nowhere', 404],
    ] as const) {
      const answer = await raw(server.port, request('GET', target, host));
      expect(answer.status, target).toBe(status);
    }
  });

  it('answers TRACE outside /v1 with a 501 problem document whose type ends in its code', async () => {
    const answer = await raw(server.port, request('TRACE', '/nowhere', 'x'));
    expect(answer.status).toBe(501);
    expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toEqual({
      type: 'urn:paystate:problem:method_not_implemented',
      title: 'Method not implemented',
      status: 501,
      detail: 'The TRACE method is not supported by this server',
      code: 'method_not_implemented',
    });
  });
});
