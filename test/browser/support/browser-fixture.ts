import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
} from '../../../adapters/sandbox-server/index.js';
import { launchChromium } from './chromium.js';
import { watchForErrors } from './flow.js';
import { startMerchantServer, type MerchantServer } from './merchant-server.js';

/** What a browser test file gets: the servers, and fresh pages in their own contexts. */
export interface BrowserFixture {
  readonly server: SandboxServer;
  readonly merchant: MerchantServer;
  /** A page in a new context (closed after the test), and the errors it logs. */
  open(options?: BrowserContextOptions): Promise<{ page: Page; errors: string[] }>;
  /** The merchant's return URL for one order: the merchant tells payments apart by it. */
  returnUrl(order: string): string;
  /** A `waitForURL` predicate: the browser is back at the merchant for `order`. */
  atMerchant(order: string): (url: URL) => boolean;
}

/**
 * Starts Chromium, a sandbox server (with `serverOptions`, e.g. a test clock) and a merchant
 * server for the calling `describe` block (stopped after it), and closes each test's browser
 * context after the test.
 */
export function useBrowserFixture(
  contextDefaults: BrowserContextOptions = {},
  serverOptions: Omit<SandboxServerOptions, 'port'> = {},
): BrowserFixture {
  let browser: Browser | undefined;
  let server: SandboxServer | undefined;
  let merchant: MerchantServer | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    [browser, server, merchant] = await Promise.all([
      launchChromium(),
      startSandboxServer({ ...serverOptions, port: 0 }),
      startMerchantServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close(), merchant?.close()]);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the browser fixture is used before beforeAll ran');
    return value;
  };
  const returnUrl = (order: string) => `${started(merchant).returnUrl}?order=${order}`;
  return {
    get server() {
      return started(server);
    },
    get merchant() {
      return started(merchant);
    },
    async open(options = {}) {
      context = await started(browser).newContext({ locale: 'en-GB', ...contextDefaults, ...options });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return { page, errors: watchForErrors(page) };
    },
    returnUrl,
    atMerchant: (order) => (url) => url.href === returnUrl(order),
  };
}
