import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientIpFromHeader, createHostedPageHandler } from '../../../adapters/http/hosted-page/index.js';
import type { FetchHandlerOptions } from '../../../adapters/http/index.js';
import { TOKENS, type ApiHarness } from '../../http/support/api-harness.js';
import { post } from '../../http/support/client.js';
import { cardFields, formTarget, openPage, postForm } from '../../hosted-page/support/page-session.js';
import { hostedRequest } from '../../support/requests.js';

export const MAIN_PROFILE = 'profile_alpha_main';
export const RETURN_URL = 'https://shop.example/return?order=1';

const servers = new Set<Server>();

/** Serves an Express app (or any request listener) on 127.0.0.1, on a free port; `closeAll` stops it. */
export async function listenApp(app: RequestListener): Promise<string> {
  const server = createHttpServer(app);
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops every server `listenApp` started (call in `afterEach`). */
export async function closeAll(): Promise<void> {
  const closing = [...servers].map(
    (server) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  servers.clear();
  await Promise.all(closing);
}

/** The harness's handler options with the hosted page as `pages` (at `/pay`), as a host sets it up. */
export function withHostedPage(api: ApiHarness): FetchHandlerOptions {
  const pages = createHostedPageHandler({
    engine: api.engine,
    credentials: api.credentials,
    clock: api.clock,
    csrfSecret: 'express-test-csrf-secret-of-at-least-32-chars',
    clientIp: clientIpFromHeader,
    ...(api.handlerOptions.logger !== undefined && { logger: api.handlerOptions.logger }),
  });
  return { ...api.handlerOptions, pages };
}

/**
 * Creates a hosted payment through `base` (origin and mount path) and pays it on its page, as a
 * browser without JavaScript would: the page's form posted urlencoded, with its CSRF cookie.
 */
export async function payOnHostedPage(
  base: string,
  card = '4242424242424242',
  headers: Record<string, string> = {},
): Promise<{ paymentId: string; status: number; location: string | undefined }> {
  const created = await post(
    `${base}/v1/profiles/${MAIN_PROFILE}/payments`,
    TOKENS.alphaHosted,
    hostedRequest({ session: { redirect_url: RETURN_URL } }),
  );
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  const redirect = new URL(created.json.next.redirect as string);
  const pageUrl = `${base}${redirect.pathname}${redirect.search}`;
  const page = await openPage(pageUrl);
  const answer = await postForm(
    formTarget(pageUrl),
    { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields(card) },
    page.cookie,
    headers,
  );
  const location = answer.headers['location'];
  return {
    paymentId: created.json.id,
    status: answer.status,
    location: Array.isArray(location) ? location[0] : location,
  };
}
