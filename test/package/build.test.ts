import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<
    string,
    string | { import: { types: string; default: string }; require: { types: string; default: string } }
  >;
};
const entries = Object.entries(pkg.exports).filter(
  (
    entry,
  ): entry is [string, { import: { types: string; default: string }; require: { types: string; default: string } }] =>
    typeof entry[1] === 'object',
);

/** A name each entry must export, proving the module really loaded (not just resolved). */
const EXPECTED: Record<string, string> = {
  '.': 'createPaymentEngine',
  './memory': 'createMemoryPaymentRepository',
  './sandbox': 'createSandboxAcquirer',
  './node': 'createCryptoIdGenerator',
  './http': 'createFetchHandler',
  './express': 'paystate',
  './fastify': 'paystateFrameworkErrors',
  './sandbox-server': 'startSandboxServer',
  './postgres': 'createPostgresPaymentRepository',
  './hosted-page': 'createHostedPageHandler',
  './webhooks': 'createWebhookEventSink',
  './otel': 'createOpenTelemetry',
};

describe('npm run build', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
  }, 180_000);

  it.each(entries)('%s: emits ESM, CJS and types that load', (name, target) => {
    for (const file of [target.import.default, target.import.types, target.require.default, target.require.types]) {
      expect(existsSync(join(root, file)), file).toBe(true);
    }
    const exportName = EXPECTED[name];
    expect(exportName, `add the export that proves ${name} loaded to EXPECTED`).toBeDefined();
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(root, target.import.default))}); console.log(typeof m[${JSON.stringify(exportName)}]);`,
      ],
      { encoding: 'utf8' },
    );
    const cjs = execFileSync(
      process.execPath,
      [
        '-e',
        `const m = require(${JSON.stringify(join(root, target.require.default))}); console.log(typeof m[${JSON.stringify(exportName)}]);`,
      ],
      { encoding: 'utf8' },
    );
    expect(esm.trim()).toBe('function');
    expect(cjs.trim()).toBe('function');
  });

  it('builds an entry for every export of package.json', () => {
    expect(entries.length).toBeGreaterThanOrEqual(4);
  });
});
