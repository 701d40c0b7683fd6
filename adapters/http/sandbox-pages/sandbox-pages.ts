import { clientIpFromHeader } from '../hosted-page/client-ip.js';
import { createHostedPageHandler } from '../hosted-page/hosted-page-handler.js';
import type { PagesHandler } from '../page-context.js';
import { createIssuerPageHandler } from './issuer-page.js';
import { createReturnLinks } from './return-links.js';
import { createReturnPage } from './return-page.js';
import type { SandboxPageDeps } from './sandbox-page-deps.js';

/** The test cards the sandbox's hosted page lists, one per outcome a newcomer wants to see. */
const LISTED_CARDS: Readonly<Record<string, string>> = {
  '4242424242424242': 'Approved, no 3-D Secure',
  '4000000000003055': 'Approved after frictionless 3-D Secure',
  '4000000000003220': 'Your bank asks you to confirm',
  '4000000000000002': 'Declined',
};

/**
 * `/` sends a browser to the API reference: the sandbox prints its base URL, and a newcomer opens
 * it. Anything else is left to the other pages.
 */
function rootToReference(request: Request): Response | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (new URL(request.url).pathname !== '/') return undefined;
  return new Response(null, { status: 302, headers: { location: '/docs', 'cache-control': 'no-store' } });
}

/**
 * The sandbox's browser pages outside `/v1`: `/` (to `/docs`), the hosted page `/pay/…` in test
 * mode, the issuer's challenge page and the return page, under the `PageContext`'s request id.
 */
export function createSandboxPages(app: SandboxPageDeps): PagesHandler {
  const csrfSecret = app.secrets.csrf;
  const hosted = createHostedPageHandler({
    engine: app.engine,
    credentials: app.credentials,
    clock: app.clock,
    logger: app.logger,
    csrfSecret,
    storeTimeoutMs: app.storeTimeoutMs,
    clientIp: clientIpFromHeader,
    testCards: Object.entries(LISTED_CARDS).map(([number, label]) => ({ number, label })),
  });
  const issuer = createIssuerPageHandler(app, { csrfSecret });
  const links = createReturnLinks(csrfSecret, app.baseUrl);
  const returnPage = createReturnPage(app, links);
  // A page's answer that sends the browser back to the return page names the payment (`stamp`).
  const stamped = (answer: Response | undefined, request: Request) =>
    answer === undefined ? undefined : links.stamp(request, answer);
  return async (request, context) =>
    rootToReference(request) ??
    stamped(await hosted(request, context), request) ??
    stamped(await issuer(request, context), request) ??
    (await returnPage(request, context));
}
