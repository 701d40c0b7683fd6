import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from './support/embedded-postgres.js';
import { hostedRequest } from '../support/requests.js';
import { sandboxSecretsFile } from '../support/sandbox-secrets-file.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'sandbox_hosted_only_token';

/** `paystate demo --database-url …` as `npm run demo -- --database-url …` runs it; resolves with its URL. */
async function startDemo(databaseUrl: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bin/paystate.ts',
      'demo',
      '--port',
      '0',
      '--database-url',
      databaseUrl,
      '--secrets-file',
      sandboxSecretsFile(),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  for (let waited = 0; !/listening on (http:\/\/\S+)/.test(output); waited += 50) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`demo did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  return { child, url, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('paystate demo --database-url', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await startTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('keeps payments in Postgres: a payment created before a restart is read back after it', async () => {
    const first = await startDemo(database.connectionString);
    expect(first.output()).toContain('Storage: Postgres');
    expect(first.output()).not.toContain(database.connectionString);
    const created = await fetch(`${first.url}/v1/profiles/profile_webshop/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(hostedRequest()),
    });
    expect(created.status).toBe(201);
    const payment = (await created.json()) as { id: string; _links: { self: { href: string } } };
    expect(await stop(first.child)).toBe(0);

    const second = await startDemo(database.connectionString);
    try {
      const read = await fetch(`${second.url}${payment._links.self.href}`, {
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
      });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { id: string; state: string }).id).toBe(payment.id);
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  });
});
