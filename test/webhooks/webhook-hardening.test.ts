import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createWebhookEventSink,
  createWebhookSignatureHeader,
  DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES,
  MAX_WEBHOOK_PAYLOAD_DEPTH,
  MAX_WEBHOOK_SECRETS,
  parseWebhookEvent,
  toWebhookEvent,
  verifyWebhookSignature,
  type WebhookEventSinkOptions,
  type WebhookFetch,
} from '../../adapters/webhooks/index.js';
import type { DomainEvent } from '../../src/index.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { publicLookup } from './support/lookups.js';
import { NEXT_SECRET, SECRET } from './support/webhook-engine.js';

const event = (): DomainEvent => makeEvent(makeSucceededRecord(), 'payment.succeeded');

// The limits as numbers, so that a test fails on code without them for the limit, not the name.
const SECRETS_LIMIT = 8;
const DEPTH_LIMIT = 32;
const PAYLOAD_LIMIT = 1024 * 1024;

it('the limits are exported as documented', () => {
  expect([MAX_WEBHOOK_SECRETS, MAX_WEBHOOK_PAYLOAD_DEPTH, DEFAULT_MAX_WEBHOOK_PAYLOAD_BYTES]).toEqual([
    SECRETS_LIMIT,
    DEPTH_LIMIT,
    PAYLOAD_LIMIT,
  ]);
});

/** A fetch double that records the headers of each call. */
function recording() {
  const calls: Headers[] = [];
  const fetch: WebhookFetch = async (_, init) => {
    calls.push(new Headers(init.headers));
    return new Response(null, { status: 204 });
  };
  return { calls, fetch };
}

describe('headers a configuration adds', () => {
  const make = (options: Partial<WebhookEventSinkOptions>) => () =>
    createWebhookEventSink({ url: 'https://hooks.example/in', secrets: SECRET, lookup: publicLookup, ...options });

  it.each([
    'Transfer-Encoding',
    'transfer-encoding',
    'Expect',
    'Connection',
    'Upgrade',
    'TE',
    'Trailer',
    'Keep-Alive',
    'Proxy-Connection',
    'Content-Encoding',
  ])('refuses %s, which changes how the request is framed or sent', (name) => {
    expect(make({ headers: { [name]: 'chunked' } })).toThrow(RangeError);
    expect(make({ headers: { [name]: 'chunked' } })).toThrow(`headers may not set ${name}`);
  });

  it('refuses a value with a control character, outside ASCII, or padded, and a name given twice in two cases', () => {
    for (const value of ['a\rb', 'a\u0000b', 'caf\u00e9', '\u20acuro', ' padded', 'padded\t', 'a\u007fb']) {
      expect(make({ headers: { 'X-Shop': value } }), JSON.stringify(value)).toThrow(RangeError);
      expect(make({ userAgent: value }), JSON.stringify(value)).toThrow(RangeError);
    }
    expect(make({ headers: { 'X-Shop': 'a', 'x-shop': 'b' } })).toThrow('given twice');
    expect(make({ userAgent: '' })).toThrow(RangeError);
    expect(make({ headers: { 'X-Shop': 'inner spaces\tand a tab', 'X-Empty': '' } })).not.toThrow();
  });

  it("an endpoint's header replaces the sink's of the same name in another case, rather than joining it", async () => {
    const double = recording();
    const sink = createWebhookEventSink({
      url: () => ({ url: 'https://outlet.example/in', headers: { authorization: 'Bearer outlet-token' } }),
      headers: { Authorization: 'Basic platform-wide' },
      secrets: SECRET,
      fetch: double.fetch,
      lookup: publicLookup,
    });
    expect((await sink.publish(event())).isOk()).toBe(true);
    expect(double.calls[0]?.get('authorization')).toBe('Bearer outlet-token');
  });
});

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A node:http server on 127.0.0.1 answering as `handle` does; its origin. */
async function serve(handle: (headers: IncomingHttpHeaders, res: ServerResponse, body: Buffer) => void) {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req.headers, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const localSink = (origin: string, options: Partial<WebhookEventSinkOptions> = {}) =>
  createWebhookEventSink({
    url: `${origin}/hooks`,
    secrets: SECRET,
    clock: createTestClock(),
    allowInsecureHttp: true,
    allowPrivateNetworks: true,
    ...options,
  });

describe('the request on the wire, and what is read of the answer', () => {
  it('sends a Content-Length body, no chunking, a fresh connection, and the headers as set', async () => {
    let seen: { headers: IncomingHttpHeaders; body: Buffer } | undefined;
    const origin = await serve((headers, res, body) => {
      seen = { headers, body };
      res.writeHead(204).end();
    });
    const published = event();
    expect((await localSink(origin, { headers: { 'X-Shop': 'webshop' } }).publish(published)).isOk()).toBe(true);
    expect(seen?.headers['content-length']).toBe(String(seen?.body.length));
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
    expect(seen?.headers.connection).toBe('close');
    expect(seen?.headers['x-shop']).toBe('webshop');
    expect(seen?.headers['idempotency-key']).toBe(published.id);
    expect(JSON.parse(seen?.body.toString('utf8') ?? '')).toEqual(
      JSON.parse(JSON.stringify(toWebhookEvent(published))),
    );
  });

  it('takes the status of a receiver that streams its answer forever, and closes the connection', async () => {
    let closed = false;
    const origin = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(64 * 1024)), 5);
      res.on('close', () => {
        clearInterval(timer);
        closed = true;
      });
    });
    const started = performance.now();
    expect((await localSink(origin).publish(event())).isOk()).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
    for (let waited = 0; !closed && waited < 2_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
  });

  it('takes the status of an answer whose body never comes', async () => {
    const origin = await serve((_, res) => {
      res.writeHead(503, { 'content-length': '1000000' });
      res.flushHeaders();
    });
    expect((await localSink(origin, { timeoutMs: 5_000 }).publish(event()))._unsafeUnwrapErr()).toMatchObject({
      retryable: true,
      message: expect.stringMatching(/answered 503$/),
    });
  });

  it('an answer with headers too large to read is a retryable failure, not a crash', async () => {
    const origin = await serve((_, res) => {
      res.writeHead(200, { 'x-huge': 'y'.repeat(64 * 1024) }).end();
    });
    const failure = (await localSink(origin, { timeoutMs: 5_000 }).publish(event()))._unsafeUnwrapErr();
    expect(failure).toMatchObject({ retryable: true });
    expect(failure.message).toMatch(/^Webhook call to 127\.0\.0\.1:\d+ failed: /);
  });
});

describe('the Paystate-Signature header a verifier reads', () => {
  const NOW = Date.UTC(2026, 0, 15, 12);
  const T = NOW / 1000;
  const BODY = JSON.stringify(toWebhookEvent(event()));
  const good = createWebhookSignatureHeader({ payload: BODY, secrets: SECRET, timestamp: T }).split(',')[1] ?? '';
  const verify = (header: unknown, payload: unknown = BODY) =>
    verifyWebhookSignature({ payload: payload as string, header: header as string, secrets: SECRET, now: NOW });

  it(`reads at most ${SECRETS_LIMIT} v1= signatures`, () => {
    const others = Array.from({ length: SECRETS_LIMIT - 1 }, (_, i) => `v1=${String(i).repeat(64)}`);
    expect(verify(`t=${T},${others.join(',')},${good}`).isOk()).toBe(true);
    const tooMany = `t=${T},v1=${'f'.repeat(64)},${others.join(',')},${good}`;
    expect(verify(tooMany)._unsafeUnwrapErr()).toMatchObject({
      code: 'malformed_header',
      message: `Paystate-Signature has more than ${SECRETS_LIMIT} v1= signatures`,
    });
  });

  it('takes uppercase hex and spaces around entries, and nothing else that is not hex', () => {
    expect(verify(`t=${T}, ${good.toUpperCase().replace('V1=', 'v1=')} `).isOk()).toBe(true);
    expect(verify(`t=${T},${good.slice(0, -1)}g`)._unsafeUnwrapErr().code).toBe('malformed_header');
    expect(verify(`t=${T},${good}0`)._unsafeUnwrapErr().code).toBe('malformed_header');
  });

  it('answers malformed_header, never throws, for a header array holding something other than text', () => {
    expect(verify([42])._unsafeUnwrapErr().code).toBe('malformed_header');
    expect(verify([null])._unsafeUnwrapErr().code).toBe('malformed_header');
    expect(verify(42)._unsafeUnwrapErr().code).toBe('missing_header');
  });

  it('verifies the ArrayBuffer of `await request.arrayBuffer()`', () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(
      verify(`t=${T},${good}`, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).isOk(),
    ).toBe(true);
  });

  it('throws a TypeError that says what to do for a body a JSON middleware already parsed', () => {
    expect(() => verify(`t=${T},${good}`, JSON.parse(BODY))).toThrow(TypeError);
    expect(() => verify(`t=${T},${good}`, JSON.parse(BODY))).toThrow(/raw body/);
  });
});

describe('secrets', () => {
  it(`takes at most ${SECRETS_LIMIT}, so a sink never signs with more v1= than a verifier reads`, () => {
    const secrets = Array.from({ length: SECRETS_LIMIT + 1 }, (_, i) => `${SECRET}-${i}`);
    const make = (list: string[]) => () => createWebhookEventSink({ url: 'https://hooks.example/in', secrets: list });
    expect(make(secrets.slice(0, SECRETS_LIMIT))).not.toThrow();
    expect(make(secrets)).toThrow(`takes at most ${SECRETS_LIMIT} secrets`);
    expect(() => createWebhookSignatureHeader({ payload: '{}', secrets, timestamp: 1 })).toThrow(RangeError);
    try {
      make(secrets)();
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
    }
  });
});

describe('parseWebhookEvent on hostile bodies (signed: a leaked secret, a broken sender)', () => {
  const NOW = Date.UTC(2026, 0, 15, 12);
  const T = NOW / 1000;
  const envelope = () => JSON.parse(JSON.stringify(toWebhookEvent(event()))) as Record<string, unknown>;
  const parse = (payload: string | Uint8Array, options: { maxPayloadBytes?: number } = {}) =>
    parseWebhookEvent({
      payload,
      header: createWebhookSignatureHeader({ payload, secrets: SECRET, timestamp: T }),
      secrets: SECRET,
      now: NOW,
      ...options,
    });

  it.each([
    ['at the top', (body: string) => body.replace(/^\{/, '{"__proto__":{"polluted":true},')],
    ['escaped', (body: string) => body.replace(/^\{/, '{"\\u005f_proto__":{"polluted":true},')],
    ['in the payment', (body: string) => body.replace('"payment":{', '"payment":{"__proto__":{"isAdmin":true},')],
  ])('refuses a __proto__ key %s', (_, tamper) => {
    const body = tamper(JSON.stringify(envelope()));
    expect(body).toContain('proto');
    const failure = parse(body)._unsafeUnwrapErr();
    expect(failure).toEqual({ code: 'malformed_payload', message: 'The body has a __proto__ key' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it(`refuses objects and arrays nested deeper than ${DEPTH_LIMIT}, without parsing them`, () => {
    const nest = (depth: number) => {
      const body = envelope();
      body['extra'] = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      return JSON.stringify(body);
    };
    // The envelope is one level; `extra` adds its own.
    expect(parse(nest(DEPTH_LIMIT - 1)).isOk()).toBe(true);
    expect(parse(nest(DEPTH_LIMIT))._unsafeUnwrapErr()).toEqual({
      code: 'malformed_payload',
      message: `The body nests deeper than ${DEPTH_LIMIT} levels`,
    });
    const deep = JSON.stringify(envelope()).replace(/\}$/, `,"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(parse(deep)._unsafeUnwrapErr().code).toBe('malformed_payload');
    // Brackets inside strings, escaped quotes included, are not nesting.
    const body = envelope();
    body['note'] = `"\\${'['.repeat(100)}`;
    expect(parse(JSON.stringify(body)).isOk()).toBe(true);
  });

  it(`refuses a body over maxPayloadBytes (default ${PAYLOAD_LIMIT}) as payload_too_large, before checking its signature`, () => {
    const body = envelope();
    body['padding'] = 'x'.repeat(PAYLOAD_LIMIT);
    const large = JSON.stringify(body);
    // Its own code, not malformed_payload: a receiver answers it 413, and the body may be fine.
    expect(parse(large)._unsafeUnwrapErr()).toEqual({
      code: 'payload_too_large',
      message: `The body is larger than ${PAYLOAD_LIMIT} bytes (maxPayloadBytes)`,
      maxPayloadBytes: PAYLOAD_LIMIT,
    });
    expect(parse(large, { maxPayloadBytes: 2 * PAYLOAD_LIMIT }).isOk()).toBe(true);
    // Counted in bytes, not characters; and an unsigned one is refused as large, not hashed.
    const small = JSON.stringify(envelope());
    const bytes = Buffer.byteLength(small);
    expect(parse(small, { maxPayloadBytes: bytes }).isOk()).toBe(true);
    expect(parse(Buffer.from(small), { maxPayloadBytes: bytes - 1 })._unsafeUnwrapErr()).toMatchObject({
      code: 'payload_too_large',
      maxPayloadBytes: bytes - 1,
    });
    const unsigned = parseWebhookEvent({
      payload: large,
      header: `t=${T},v1=${'0'.repeat(64)}`,
      secrets: SECRET,
      now: NOW,
    });
    expect(unsigned._unsafeUnwrapErr().code).toBe('payload_too_large');
    for (const maxPayloadBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => parse(small, { maxPayloadBytes })).toThrow(RangeError);
    }
  });

  it('still takes the body as sent, fields added later kept', () => {
    const body = { ...envelope(), added_later: { nested: [1, 2, 3] } };
    expect(parse(JSON.stringify(body))._unsafeUnwrap()).toEqual(body);
    expect(parse(Buffer.from(JSON.stringify(body)), { maxPayloadBytes: 10_000 }).isOk()).toBe(true);
  });

  it('verifies with either secret while rotating, as before', () => {
    const payload = JSON.stringify(envelope());
    const header = createWebhookSignatureHeader({ payload, secrets: [SECRET, NEXT_SECRET], timestamp: T });
    expect(parseWebhookEvent({ payload, header, secrets: NEXT_SECRET, now: NOW }).isOk()).toBe(true);
  });
});
