import { afterEach, describe, expect, it } from 'vitest';
import { createHostedPageHandler } from '../../adapters/http/hosted-page/index.js';
import { createTestClock } from '../../adapters/memory/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import type { CredentialStore } from '../../src/index.js';
import { call, post } from '../http/support/client.js';
import { directRequest, hostedRequest } from '../support/requests.js';

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';

let server: SandboxServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** From now on, the store's `findProfile` never answers (a stalled database); `authenticate` still does. */
function stallFindProfile(credentials: CredentialStore): void {
  (credentials as { findProfile: CredentialStore['findProfile'] }).findProfile = () => new Promise(() => undefined);
}

/** The answer, or a failure that says the server never gave one (instead of the test timing out). */
function within<T>(answer: Promise<T>, ms = 3000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<T>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, never]).finally(() => clearTimeout(timer));
}

describe('pages with a credential store that does not answer (found by a reviewer)', () => {
  it('the hosted payment page shows "the merchant" after storeTimeoutMs instead of hanging', async () => {
    server = await startSandboxServer({ port: 0, storeTimeoutMs: 50 });
    const created = await post(`${server.url}/v1/profiles/profile_webshop/payments`, HOSTED, hostedRequest());
    expect(created.status).toBe(201);
    stallFindProfile(server.credentials);
    const page = await within(call(String(created.json.next.redirect)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('the merchant');
    expect(page.text).not.toContain('Sandbox Webshop');
    expect(page.text).toContain('autocomplete="cc-number"');
  });

  it("the simulated issuer's challenge page shows the profile id after storeTimeoutMs instead of hanging", async () => {
    server = await startSandboxServer({ port: 0, storeTimeoutMs: 50 });
    const direct = await post(
      `${server.url}/v1/profiles/profile_webshop/payments`,
      PCI,
      directRequest('4000000000003220'),
    );
    expect(direct.json.state).toBe('processing');
    stallFindProfile(server.credentials);
    const page = await within(call(String(direct.json.next.redirect)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm this payment');
    expect(page.text).toContain('profile_webshop');
  });

  it('storeTimeoutMs of the hosted page must be a whole number of milliseconds of at least 1', () => {
    const base = {
      engine: {} as never,
      credentials: {} as never,
      clock: createTestClock(),
      csrfSecret: 'x'.repeat(32),
      clientIp: () => undefined,
    };
    for (const storeTimeoutMs of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(() => createHostedPageHandler({ ...base, storeTimeoutMs }), String(storeTimeoutMs)).toThrow(RangeError);
    }
    expect(() => createHostedPageHandler({ ...base, storeTimeoutMs: 1 })).not.toThrow();
  });
});
