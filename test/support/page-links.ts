import type { FetchHandler } from '../../adapters/http/index.js';
import { hostedRequest } from './requests.js';

/*
 * A browser on the hosted page and a merchant on the API of a sandbox app, in process (its
 * `handler`, no socket), for the tests of hosted page links.
 */

export const HOSTED_CLIENT = 'sandbox_hosted_only_token';
const PAYMENTS = '/v1/profiles/profile_webshop/payments';

/** A page as the browser got it: status, HTML, the CSRF cookie and the form's hidden fields. */
export interface PageView {
  readonly status: number;
  readonly text: string;
  readonly cookie: string | undefined;
  readonly csrf: string | undefined;
  readonly token: string | undefined;
}

const hidden = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(text)?.[1];

/** GET `url` from `handler`, as a browser (with a cookie it holds, if any). */
export async function openPageOn(handler: FetchHandler, url: string, cookie?: string): Promise<PageView> {
  const answer = await handler(
    new Request(url, { headers: { accept: 'text/html', ...(cookie !== undefined && { cookie }) } }),
  );
  const text = await answer.text();
  return {
    status: answer.status,
    text,
    cookie: answer.headers.get('set-cookie')?.split(';')[0] ?? cookie,
    csrf: hidden(text, 'csrf'),
    token: hidden(text, 'token'),
  };
}

/** POSTs the card form of `page` (opened at `url`) to `handler`, with `token` (default the page's own). */
export async function postCardOn(
  handler: FetchHandler,
  url: string,
  page: PageView,
  token = page.token ?? '',
): Promise<Response> {
  const fields = {
    token,
    csrf: page.csrf ?? '',
    number: '4242 4242 4242 4242',
    expiry: '12/30',
    cvc: '737',
    holder_name: 'Ada Lovelace',
  };
  return handler(
    new Request(url.split('?')[0] ?? url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        ...(page.cookie !== undefined && { cookie: page.cookie }),
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** Creates a hosted payment on `handler` (with an `Idempotency-Key` when given): status, headers, body text. */
export async function createHostedOn(handler: FetchHandler, origin: string, key?: string) {
  const answer = await handler(
    new Request(`${origin}${PAYMENTS}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${HOSTED_CLIENT}`,
        'content-type': 'application/json',
        ...(key !== undefined && { 'idempotency-key': key }),
      },
      body: JSON.stringify(hostedRequest()),
    }),
  );
  const text = await answer.text();
  return { status: answer.status, replayed: answer.headers.get('idempotency-replayed'), text };
}

/** The `next.redirect` of a payment's JSON; '' when it has none. */
export function linkOf(text: string): string {
  return String((JSON.parse(text) as { next?: { redirect?: string } }).next?.redirect ?? '');
}

/**
 * Every string in `text` that could be a page token: each run of 16 or more URL-safe base64
 * characters, in the text as it is and with its JSON and percent escapes undone.
 */
export function tokenLikeStrings(text: string): string[] {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    // The text as it is, then.
  }
  const runs = `${text}\n${decoded.replace(/\\u00([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))}`;
  return [...new Set(runs.match(/[A-Za-z0-9_-]{16,}/g) ?? [])];
}

/** The page of payment `id` at `origin` opened with each of `tokens`: the statuses that were not 404, by token. */
export async function tokensThatOpen(
  handler: FetchHandler,
  origin: string,
  id: string,
  tokens: readonly string[],
): Promise<string[]> {
  const opened: string[] = [];
  for (const token of tokens) {
    const page = await handler(new Request(`${origin}/pay/${id}?token=${encodeURIComponent(token)}`));
    await page.arrayBuffer();
    if (page.status !== 404) opened.push(token);
  }
  return opened;
}
