import { connect } from 'node:net';
import type { Result } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUNDLED_SANDBOX_CONFIG,
  createSandboxApp,
  readSandboxConfigFile,
  startSandboxServer,
  type SandboxServer,
} from '../../adapters/sandbox-server/index.js';
import { paymentSchema } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { call, get, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';
const OUTLET = 'sandbox_outlet_only_token';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends raw bytes and returns what comes back until the server closes the connection. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('the bundled sandbox config', () => {
  it('has one partner, two profiles and three clients: compliant, hosted only, second profile only', () => {
    expect(BUNDLED_SANDBOX_CONFIG.partners).toHaveLength(1);
    expect(BUNDLED_SANDBOX_CONFIG.partners[0]?.profiles).toHaveLength(2);
    expect(
      BUNDLED_SANDBOX_CONFIG.clients.map((client) => [client.token, client.profile_ids, client.pci_dss_compliant]),
    ).toEqual([
      [PCI, ['profile_webshop', 'profile_outlet'], true],
      [HOSTED, ['profile_webshop', 'profile_outlet'], false],
      [OUTLET, ['profile_outlet'], false],
    ]);
  });

  it('reads config files and reports what is wrong without repeating tokens', async () => {
    const missing = await readSandboxConfigFile('/nonexistent/sandbox.json');
    expect(missing._unsafeUnwrapErr().code).toBe('unreadable');
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'paystate-'));
    await writeFile(join(dir, 'broken.json'), '{"partners": [');
    expect((await readSandboxConfigFile(join(dir, 'broken.json')))._unsafeUnwrapErr().code).toBe('invalid_json');
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({
        partners: [],
        clients: [{ token: 'secret-token-x', partner_id: 'p', profile_ids: [], pci_dss_compliant: true }],
      }),
    );
    const bad = (await readSandboxConfigFile(join(dir, 'bad.json')))._unsafeUnwrapErr();
    expect(bad.code).toBe('invalid_config');
    expect(bad.message).not.toContain('secret-token-x');
  });
});

describe('startSandboxServer', () => {
  it('serves both flows with the bundled tokens; next.redirect points at its own pages', async () => {
    server = await startSandboxServer({ port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const webshop = `${server.url}/v1/profiles/profile_webshop/payments`;

    const hosted = await post(webshop, HOSTED, hostedRequest());
    expect(hosted.status).toBe(201);
    expect(paymentSchema.safeParse(hosted.json).success).toBe(true);
    expect(hosted.json.next.redirect).toMatch(
      new RegExp(`^${server.url}/pay/${hosted.json.id}\\?token=[A-Za-z0-9_-]{20,}$`),
    );
    const page = await call(hosted.json.next.redirect);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Sandbox Webshop');
    expect(page.text).toContain('autocomplete="cc-number"');

    const direct = await post(webshop, PCI, directRequest('4000000000003220'));
    expect(direct.json.state).toBe('processing');
    const challengeUrl = new URL(direct.json.next.redirect);
    expect(challengeUrl.origin).toBe(server.url);
    const [, , , , paymentId, transactionId] = challengeUrl.pathname.split('/');
    expect(challengeUrl.pathname).toBe(`/sandbox/issuer/challenge/${direct.json.id}/${transactionId}`);
    expect((await call(challengeUrl.href)).text).toContain('Confirm this payment');

    const cres = server.challengeResponse(paymentId ?? '', transactionId ?? '', 'authorise');
    expect(
      (
        await server.engine.completeChallenge({ paymentId: paymentId ?? '', transactionId: transactionId ?? '', cres })
      ).isOk(),
    ).toBe(true);
    const read = await get(`${server.url}${direct.json._links.self.href}`, PCI);
    expect(read.json.state).toBe('succeeded');

    expectProblem(await post(webshop, HOSTED, directRequest('4242424242424242')), 403, 'direct_flow_not_permitted');
    expectProblem(await post(webshop, OUTLET, hostedRequest()), 403, 'forbidden_profile');
    expect((await post(`${server.url}/v1/profiles/profile_outlet/payments`, OUTLET, hostedRequest())).status).toBe(201);
    expectProblem(await call(`${server.url}/nowhere`), 404, 'not_found');
  });

  it('runs the sweeper: an abandoned hosted payment expires', async () => {
    server = await startSandboxServer({ port: 0, sweepIntervalMs: 20, engineOptions: { hostedPageTimeoutMs: 50 } });
    const created = await post(`${server.url}/v1/profiles/profile_webshop/payments`, HOSTED, hostedRequest());
    let state = created.json.state;
    for (let waited = 0; state !== 'expired' && waited < 3000; waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = (await get(`${server.url}${created.json._links.self.href}`, HOSTED)).json.state;
    }
    expect(state).toBe('expired');
  });

  it('answers malformed HTTP with a problem document', async () => {
    server = await startSandboxServer({ port: 0 });
    const answer = await raw(
      server.port,
      'GET /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Type: application/problem+json');
  });

  it('answers a Host header no URL can hold as if it were localhost, on every kind of path', async () => {
    server = await startSandboxServer({ port: 0 });
    for (const host of ['x:99999', '999.999.999.999', '1.2.3.4.5', '[:::::]']) {
      for (const path of ['/pay/payment_1', '/docs', '/sandbox/issuer/x', '/nowhere', '/x/../v1/profiles']) {
        const answer = await raw(server.port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
        expect(status, `${host} ${path}`).toBeGreaterThanOrEqual(200);
        expect(status, `${host} ${path}`).toBeLessThan(500);
      }
    }
  });

  it('answers a request whose body never finishes with a 408 problem document once requestTimeoutMs has passed', async () => {
    server = await startSandboxServer({ port: 0, requestTimeoutMs: 300 });
    const answer = await raw(
      server.port,
      'POST /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${HOSTED}\r\nContent-Length: 100\r\n\r\n{"amount":`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('Content-Type: application/problem+json');
    expect(server.repository.size()).toBe(0);
  });

  it('closes gracefully, twice if asked, and stops listening', async () => {
    server = await startSandboxServer({ port: 0 });
    const { url } = server;
    expect((await get(`${url}/v1/profiles/profile_webshop/payments`, HOSTED)).status).toBe(200);
    await Promise.all([server.close(), server.close()]);
    await expect(fetch(`${url}/v1/profiles/profile_webshop/payments`)).rejects.toThrow();
  });

  // Found by a reviewing helper: a request in flight when `close` was called was answered
  // `Connection: keep-alive`, and the shutdown (Ctrl+C on `paystate demo`) then waited out the
  // whole of shutdownGraceMs for its idle connection.
  it('answers a request in flight at close with Connection: close, and stops as soon as it is answered', async () => {
    server = await startSandboxServer({ port: 0, shutdownGraceMs: 60_000 });
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    const until = async (done: () => boolean) => {
      for (let waited = 0; !done(); waited += 10) {
        if (waited > 10_000) throw new Error(`no answer; got ${JSON.stringify(answer)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const body = JSON.stringify(hostedRequest());
    // `Expect: 100-continue`: the server answers 100 once it has handed the request to the app.
    socket.write(
      'POST /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${HOSTED}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await until(() => answer.includes('100 Continue'));
    const closed = server.close();
    socket.write(body);
    await until(() => /\r\n\r\n[^]*\r\n\r\n\{[^]*\}$/.test(answer));
    expect(answer).toMatch(/^HTTP\/1\.1 201 /m);
    expect(answer).toMatch(/^connection: close\r$/im);
    const stopped = await Promise.race([
      closed.then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting for the connection'), 5_000)),
    ]);
    expect(stopped).toBe('stopped');
    socket.destroy();
  });

  it('reports a port in use', async () => {
    server = await startSandboxServer({ port: 0 });
    await expect(startSandboxServer({ port: server.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('housekeeping in the sandbox', () => {
  const baseUrl = () => 'http://127.0.0.1:1';

  it('runs the storage’s housekeeping when it has one (Postgres), else purges expired idempotency keys', async () => {
    const memory = createSandboxApp({ baseUrl });
    const DAY = 24 * 60 * 60 * 1000;
    memory.idempotency.begin({ clientId: 'c', key: 'k', fingerprint: 'f', now: 0, ttlMs: DAY });
    expect(((await memory.housekeep(2 * DAY)) as Result<number, unknown>)._unsafeUnwrap()).toBe(1);

    const calls: number[] = [];
    const withHousekeeping = createSandboxApp({
      baseUrl,
      storage: {
        repository: memory.repository,
        idempotency: memory.idempotency,
        credentials: memory.credentials,
        housekeep: (now: number) => calls.push(now),
      },
    });
    await withHousekeeping.housekeep(1234);
    expect(calls).toEqual([1234]);
  });
});
