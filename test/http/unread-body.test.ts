import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeApi, serve, SERVER_KINDS, TOKENS, type RunningServer } from './support/api-harness.js';

const PAYMENTS = '/v1/profiles/profile_alpha_main/payments';

/**
 * Sends the head of a POST that announces `declared` bytes of body and only a few of them, and
 * reads what comes back until the server closes or `ms` pass. A server that waited for the body
 * before answering would answer nothing in that time.
 */
function announceBody(server: RunningServer, authorization: string | null, declared: string, ms = 2_000) {
  return new Promise<{ readonly head: string; readonly closed: boolean }>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ head: text, closed: false });
    }, ms);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ head: text, closed: true });
    });
    socket.on('error', reject);
    socket.write(
      `POST ${server.basePath}${PAYMENTS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        (authorization === null ? '' : `Authorization: ${authorization}\r\n`) +
        `${declared}\r\n\r\n{"amount":`,
    );
  });
}

const statusOf = (head: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);

/** A host that puts `express.json()` first has its body read by that parser, before paystate runs. */
const PAYSTATE_READS_THE_BODY = SERVER_KINDS.filter((kind) => !kind.includes('json parser first'));

describe.each(PAYSTATE_READS_THE_BODY)('a body left unread, served by %s', (kind) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers an unauthenticated POST at once without reading its body, and closes the connection', async () => {
    const api = makeApi();
    server = await serve(kind, api);
    for (const authorization of [null, 'Bearer tok_nobody']) {
      const { head } = await announceBody(server, authorization, 'Content-Length: 10000000');
      expect(statusOf(head), String(authorization)).toBe(401);
      expect(head).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
      expect(head).toMatch(/\r\nrequest-id: \S+\r\n/i);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
    }
    expect(api.calls.beyondCredentials()).toBe(0);
  });

  it('answers 413 to a Content-Length over 64 KiB at once, before any of the body (chunked: error-table.test.ts)', async () => {
    const api = makeApi();
    server = await serve(kind, api);
    const declared = await announceBody(server, `Bearer ${TOKENS.alphaHosted}`, 'Content-Length: 10000000');
    expect(statusOf(declared.head)).toBe(413);
    expect(declared.head).toMatch(/\r\nrequest-id: \S+\r\n/i);
    expect(api.calls.beyondCredentials()).toBe(0);
  });
});
