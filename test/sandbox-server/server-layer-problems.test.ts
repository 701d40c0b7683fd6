import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';

const HOSTED = 'sandbox_hosted_only_token';
const LIST = '/v1/profiles/profile_webshop/payments';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
  readonly text: string;
}

/** Writes raw bytes and reads until the server closes the connection (send `Connection: close`). */
function raw(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => {
      const split = answer.indexOf('\r\n\r\n');
      const head = split === -1 ? answer : answer.slice(0, split);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]),
        head,
        body: answer.slice(split + 4),
        text: answer,
      });
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** The answer is an RFC 9457 problem document with this status and code, `type` ending in it. */
function expectServerProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.head.toLowerCase()).toContain('content-type: application/problem+json');
  const document = JSON.parse(answer.body) as Record<string, unknown>;
  expect(document).toEqual({
    type: `urn:paystate:problem:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
}

describe('the sandbox server: problems answered below the API', () => {
  it('answers an Expect other than 100-continue with a 417 problem document', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(
      server.port,
      `GET ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HOSTED}\r\nExpect: foo\r\nConnection: close\r\n\r\n`,
    );
    expectServerProblem(answer, 417, 'expectation_failed');
  });

  it('answers an unmet Expect on a request with a body with a 417 problem document, then closes', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(
      server.port,
      `POST ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HOSTED}\r\nContent-Type: application/json\r\n` +
        'Expect: 200-ok\r\nContent-Length: 1000\r\n\r\n',
    );
    expectServerProblem(answer, 417, 'expectation_failed');
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(server.repository.size()).toBe(0);
  });

  it('still meets Expect: 100-continue', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(
      server.port,
      `GET ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HOSTED}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('gives malformed HTTP a 400 problem document with a code', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(
      server.port,
      'GET /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    expectServerProblem(answer, 400, 'malformed_request');
  });

  it('gives headers too large a 431 problem document with a code', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(server.port, `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectServerProblem(answer, 431, 'headers_too_large');
  });

  it('gives a TRACE outside /v1 a 501 problem document with a code', async () => {
    server = await startSandboxServer({ port: 0 });
    for (const path of ['/docs', '/nowhere']) {
      const answer = await raw(server.port, `TRACE ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expectServerProblem(answer, 501, 'method_not_implemented');
    }
  });

  it('gives CONNECT a 501 problem document instead of dropping the connection without an answer', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectServerProblem(answer, 501, 'method_not_implemented');
  });

  it('serves an absolute-form request target by its path and query, as the origin form', async () => {
    server = await startSandboxServer({ port: 0 });
    const host = `127.0.0.1:${server.port}`;
    const request = (target: string) =>
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${HOSTED}\r\nConnection: close\r\n\r\n`;
    for (const [target, status] of [
      [`http://${host}${LIST}`, 200],
      [`HTTP://${host}${LIST}?limit=5`, 200],
      [LIST, 200],
      [`${LIST}?limit=5`, 200],
      [`http://${host}/docs`, 200],
      ['/docs', 200],
      [`http://${host}/v1/nowhere`, 404],
      ['/v1/nowhere', 404],
    ] as const) {
      const answer = await raw(server.port, request(target));
      expect(answer.status, target).toBe(status);
      if (target.includes(LIST)) {
        // `_links.self` is the page as the handler read it: the origin form's path and query.
        const self = target.endsWith('?limit=5') ? `${LIST}?limit=5` : LIST;
        expect(JSON.parse(answer.body), target).toEqual({
          items: [],
          _links: { self: { href: self, type: 'application/json' } },
        });
      }
    }
  });
});
