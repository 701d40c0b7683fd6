import { fileURLToPath } from 'node:url';
import { ok } from 'neverthrow';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../adapters/http/openapi/index.js';
import { createTestClock, parseSandboxConfig, type TestClock } from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  DEFAULT_SANDBOX_RATE_LIMIT,
  readSandboxConfigFile,
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
} from '../../adapters/sandbox-server/index.js';
import type { RateLimiter } from '../../src/index.js';
import { get, type Answer } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { createDocumentValidator, type DocumentValidator } from '../openapi/support/document-validator.js';

// Found by an outside review: one token made 2,916 payments in 8 s in the in-memory sandbox
// (about 1 GB of memory in 3 minutes). The sandbox limits each client unless told otherwise.

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';
const PROFILE_TEMPLATE = '/v1/partners/{partner_id}/profiles/{profile_id}';
const PROFILE = '/v1/partners/partner_sandbox/profiles/profile_webshop';

let validator: DocumentValidator;
let server: SandboxServer | undefined;
let clock: TestClock;

beforeAll(async () => {
  validator = await createDocumentValidator(createOpenApiDocument());
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A sandbox on a test clock (the limiter counts by it), its sweeper out of the way. */
async function start(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  clock = createTestClock();
  server = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000, clock, ...options });
  return server;
}

const profile = (token: string) => get(`${server?.url}${PROFILE}`, token);

/** `count` requests of `token` one after the other: their statuses. */
async function statuses(token: string, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await profile(token)).status);
  return seen;
}

function expectRateLimited(answer: Answer, retryAfter: string): void {
  expectProblem(answer, 429, 'rate_limited');
  expect(answer.headers['retry-after']).toBe(retryAfter);
  expect(validator.check(PROFILE_TEMPLATE, 'get', answer)).toEqual([]);
}

describe('the sandbox limits each client by default', () => {
  it('25 requests a second in bursts of 100: the 101st at once is 429, as the OpenAPI document says; other clients go on', async () => {
    expect(DEFAULT_SANDBOX_RATE_LIMIT).toEqual({ requestsPerSecond: 25, burst: 100 });
    await start();
    expect(await statuses(PCI, 100)).toEqual(Array.from({ length: 100 }, () => 200));
    expectRateLimited(await profile(PCI), '1');
    expect((await profile(HOSTED)).status).toBe(200);
    clock.advance(1000);
    expect(await statuses(PCI, 26)).toEqual([...Array.from({ length: 25 }, () => 200), 429]);
  });

  it('takes the config’s rate_limit, each field left out at its default', async () => {
    await start({ config: { ...BUNDLED_SANDBOX_CONFIG, rate_limit: { requests_per_second: 0.5, burst: 2 } } });
    expect(await statuses(PCI, 2)).toEqual([200, 200]);
    expectRateLimited(await profile(PCI), '2');
    await server?.close();
    await start({ config: { ...BUNDLED_SANDBOX_CONFIG, rate_limit: { burst: 3 } } });
    expect(await statuses(PCI, 4)).toEqual([200, 200, 200, 429]);
    clock.advance(40); // 25 a second: one more 40 ms later
    expect(await statuses(PCI, 2)).toEqual([200, 429]);
  });

  it('has none with `"rate_limit": false` in the config, nor with the option rateLimit: false', async () => {
    await start({ config: { ...BUNDLED_SANDBOX_CONFIG, rate_limit: false } });
    expect(new Set(await statuses(PCI, 130))).toEqual(new Set([200]));
    await server?.close();
    await start({ rateLimit: false, config: { ...BUNDLED_SANDBOX_CONFIG, rate_limit: { burst: 1 } } });
    expect(await statuses(PCI, 3)).toEqual([200, 200, 200]);
  });

  it('runs with the limiter given as its rateLimit option, whatever the config says', async () => {
    const refuseAll: RateLimiter = { take: () => ok({ allowed: false, retryAfterMs: 4500 }) };
    await start({ rateLimit: refuseAll, config: { ...BUNDLED_SANDBOX_CONFIG, rate_limit: false } });
    expectRateLimited(await profile(HOSTED), '5');
  });
});

describe('sandbox config: rate_limit', () => {
  const parse = (rateLimit: unknown) => parseSandboxConfig({ ...BUNDLED_SANDBOX_CONFIG, rate_limit: rateLimit });

  it('takes false, an object with either field or both, or nothing', () => {
    for (const good of [
      false,
      {},
      { requests_per_second: 0.001 },
      { burst: 1 },
      { requests_per_second: 100_000, burst: 100_000 },
    ]) {
      expect(parse(good)._unsafeUnwrap().rate_limit).toEqual(good);
    }
    expect(parseSandboxConfig(BUNDLED_SANDBOX_CONFIG)._unsafeUnwrap().rate_limit).toBeUndefined();
  });

  it('refuses what is out of range or unknown, naming where', () => {
    for (const bad of [
      true,
      null,
      0,
      { requests_per_second: 0 },
      { requests_per_second: -1 },
      { requests_per_second: 100_001 },
      { requests_per_second: '25' },
      { burst: 0 },
      { burst: 1.5 },
      { burst: 100_001 },
      { rps: 25 },
    ]) {
      const error = parse(bad)._unsafeUnwrapErr();
      expect(
        error.issues.every((issue) => issue.path.startsWith('rate_limit')),
        JSON.stringify(bad),
      ).toBe(true);
    }
  });

  it('examples/sandbox-config.json shows it with the default values', async () => {
    const read = await readSandboxConfigFile(
      fileURLToPath(new URL('../../examples/sandbox-config.json', import.meta.url)),
    );
    expect(read._unsafeUnwrap().rate_limit).toEqual({
      requests_per_second: DEFAULT_SANDBOX_RATE_LIMIT.requestsPerSecond,
      burst: DEFAULT_SANDBOX_RATE_LIMIT.burst,
    });
  });
});
