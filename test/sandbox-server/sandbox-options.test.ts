import { connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  createSandboxApp,
  startSandboxServer,
  type MemorySandboxStorage,
  type SandboxServer,
} from '../../adapters/sandbox-server/index.js';
import { call, get, jsonHeaders, post } from '../http/support/client.js';
import { directRequest, hostedRequest } from '../support/requests.js';

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';
const TRANSACTION_ID = 'd3b07384-d113-4ec6-a6f6-4b6c2a1e9f10';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Ids that count up, so that each call's is known: `RRN000000001`, `RRN000000002`, … */
function counting(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${String((next += 1)).padStart(12 - prefix.length, '0')}`;
}

function memoryStorage(): MemorySandboxStorage {
  return {
    repository: createMemoryPaymentRepository(),
    credentials: createMemoryCredentialStore(BUNDLED_SANDBOX_CONFIG),
    idempotency: createMemoryIdempotencyStore(),
  };
}

/** A loopback port that is listened on until `close`. */
async function takePort(): Promise<{ port: number; close: () => Promise<void> }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    close: () => new Promise((resolve) => taken.close(() => resolve())),
  };
}

// Found in review: the acquirer's `rrn` and the 3DS server's `transactionId` sources, which make
// the simulated answers predictable in a test, could not be given to the sandbox.
describe('the sandbox ids of the simulated acquirer and 3DS server', () => {
  it('startSandboxServer takes rrn and transactionId: the challenge URL and the payment carry them', async () => {
    server = await startSandboxServer({ port: 0, rrn: counting('RRN'), transactionId: () => TRANSACTION_ID });
    const webshop = `${server.url}/v1/profiles/profile_webshop/payments`;
    const direct = await post(webshop, PCI, directRequest('4000000000003220'));
    expect(direct.json.state).toBe('processing');
    expect(new URL(direct.json.next.redirect).pathname).toBe(
      `/sandbox/issuer/challenge/${direct.json.id}/${TRANSACTION_ID}`,
    );
    const cres = server.challengeResponse(direct.json.id, TRANSACTION_ID, 'authorise');
    expect(
      (
        await server.engine.completeChallenge({ paymentId: direct.json.id, transactionId: TRANSACTION_ID, cres })
      ).isOk(),
    ).toBe(true);
    const read = await get(`${server.url}${direct.json._links.self.href}`, PCI);
    expect(read.json).toMatchObject({ state: 'succeeded', creditcard: { rrn: 'RRN000000001' } });
    const second = await post(webshop, PCI, directRequest('4242424242424242'));
    expect(second.json).toMatchObject({ state: 'succeeded', creditcard: { rrn: 'RRN000000002' } });
  });

  it('createSandboxApp takes them too', async () => {
    const app = createSandboxApp({ baseUrl: () => 'http://127.0.0.1:1', rrn: () => 'RRN000000777' });
    const answer = await app.handler(
      new Request('http://127.0.0.1:1/v1/profiles/profile_webshop/payments', {
        method: 'POST',
        headers: { ...jsonHeaders(PCI), 'idempotency-key': 'sandbox-options-1' },
        body: JSON.stringify(directRequest('4242424242424242')),
      }),
    );
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ state: 'succeeded', creditcard: { rrn: 'RRN000000777' } });
  });
});

describe('startSandboxServer with a storage function', () => {
  it('calls it once it listens; a request that comes meanwhile waits for it and is then served', async () => {
    let listening: boolean | undefined;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A port found free, then given to the server.
    const free = await takePort();
    await free.close();
    const { port } = free;
    const starting = startSandboxServer<MemorySandboxStorage>({
      port,
      storage: async () => {
        listening = await new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        });
        await gate;
        return memoryStorage();
      },
    });
    for (let waited = 0; listening === undefined && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The server took the probe's connection: it was listening.
    expect(listening).toBe(true);
    const early = call(`http://127.0.0.1:${port}/v1/profiles/profile_webshop/payments`, {
      headers: { authorization: `Bearer ${HOSTED}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    server = await starting;
    expect((await early).status).toBe(200);
    expect((await post(`${server.url}/v1/profiles/profile_webshop/payments`, HOSTED, hostedRequest())).status).toBe(
      201,
    );
  });

  it('on a port in use, rejects without calling it', async () => {
    const taken = await takePort();
    let called = false;
    try {
      await expect(
        startSandboxServer<MemorySandboxStorage>({
          port: taken.port,
          storage: async () => {
            called = true;
            return memoryStorage();
          },
        }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await taken.close();
    }
    expect(called).toBe(false);
  });

  it('when it rejects, rejects with its error and frees the port', async () => {
    const probe = await takePort();
    await probe.close();
    await expect(
      startSandboxServer<MemorySandboxStorage>({
        port: probe.port,
        storage: () => Promise.reject(new Error('no database')),
      }),
    ).rejects.toThrow('no database');
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(probe.port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => again.close(resolve));
  });
});
