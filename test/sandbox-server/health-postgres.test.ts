import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresAdapters, type PostgresAdapters } from '../../adapters/postgres/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  startSandboxServer,
  type SandboxServer,
  type SandboxStorage,
} from '../../adapters/sandbox-server/index.js';
import { startTestDatabase, type TestDatabase } from '../postgres/support/embedded-postgres.js';
import { call } from '../http/support/client.js';

/** `/readyz` of the sandbox on Postgres (`--database-url`), with the server stopped and started again. */
describe('the sandbox server on Postgres: /readyz', () => {
  let database: TestDatabase;
  let adapters: PostgresAdapters;
  let server: SandboxServer<SandboxStorage>;
  beforeAll(async () => {
    database = await startTestDatabase();
    adapters = await createPostgresAdapters({ connectionString: database.connectionString });
    (await adapters.credentials.importConfig(BUNDLED_SANDBOX_CONFIG))._unsafeUnwrap();
    server = await startSandboxServer<SandboxStorage>({
      port: 0,
      engineOptions: { timeouts: { storageMs: 3_000 } },
      storage: {
        repository: adapters.repository,
        idempotency: adapters.idempotency,
        credentials: adapters.credentials,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await adapters?.close();
    await database?.close();
  });

  it('is 200 while Postgres answers, 503 while it is down (saying nothing of the connection), 200 once it is back', async () => {
    const up = await call(`${server.url}/readyz`);
    expect(up.status).toBe(200);
    expect(up.json).toEqual({ status: 'ok', storage: { status: 'ok', ms: expect.any(Number) } });

    const control = database.server;
    if (control === null) return; // A DATABASE_URL server is not ours to stop.
    await control.stop();
    try {
      const down = await call(`${server.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.json).toEqual({
        status: 'unavailable',
        storage: { status: 'unavailable', ms: expect.any(Number) },
      });
      const url = new URL(database.connectionString);
      expect(down.text).not.toContain(url.password);
      expect(down.text).not.toContain(String(url.port));
      // Liveness is not readiness: the process and its worker go on.
      expect((await call(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await control.start();
    }
    await vi.waitFor(async () => expect((await call(`${server.url}/readyz`)).status).toBe(200), {
      timeout: 30_000,
      interval: 200,
    });
  });
});
