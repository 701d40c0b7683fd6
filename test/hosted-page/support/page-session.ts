import { call, post, type Answer } from '../../http/support/client.js';
import { hostedRequest } from '../../support/requests.js';

export const HOSTED_TOKEN = 'sandbox_hosted_only_token';
export const PCI_TOKEN = 'sandbox_pci_compliant_token';

/** A browser's view of a page: its answer, the CSRF cookie it set and the hidden fields of its form. */
export interface OpenedPage extends Answer {
  readonly url: string;
  readonly cookie: string | undefined;
  readonly csrf: string | undefined;
  readonly token: string | undefined;
}

function setCookieOf(answer: Answer): string | undefined {
  const header = answer.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  return first?.split(';')[0];
}

const hidden = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(text)?.[1];

/** GET a page as a browser would (with a previous cookie, if any). */
export async function openPage(
  url: string,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<OpenedPage> {
  const answer = await call(url, {
    headers: { accept: 'text/html', 'user-agent': 'PageTest/1.0', ...(cookie && { cookie }), ...headers },
  });
  return {
    ...answer,
    url,
    cookie: setCookieOf(answer) ?? cookie,
    csrf: hidden(answer.text, 'csrf'),
    token: hidden(answer.text, 'token'),
  };
}

/** POST a form to `url` (urlencoded), as the browser would with `cookie`. */
export function postForm(
  url: string,
  fields: Record<string, string>,
  cookie: string | undefined,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return call(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml',
      'accept-language': 'nl-NL,nl;q=0.9,en;q=0.8',
      'accept-encoding': 'gzip, deflate',
      'user-agent': 'PageTest/1.0',
      ...(cookie && { cookie }),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The card fields of the form, for a card number. */
export function cardFields(number: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    number: number.replace(/(\d{4})(?=\d)/g, '$1 '),
    expiry: '12/30',
    cvc: number.startsWith('3') ? '9371' : '937',
    holder_name: 'Ada Lovelace',
    ...overrides,
  };
}

/** Creates a hosted payment on `base` and returns it (JSON) with its page URL. */
export async function createHostedPayment(
  base: string,
  redirectUrl = 'http://127.0.0.1:9/return?order=1',
  overrides: Record<string, unknown> = {},
) {
  const created = await post(
    `${base}/v1/profiles/profile_webshop/payments`,
    HOSTED_TOKEN,
    hostedRequest({ session: { redirect_url: redirectUrl }, ...overrides }),
  );
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  return { payment: created.json, pageUrl: created.json.next.redirect as string };
}

/** The form post target of a page URL: the same path, without the query. */
export const formTarget = (pageUrl: string) => pageUrl.split('?')[0] ?? pageUrl;

/** Opens the page and submits the card form with the page's own token and CSRF proof. */
export async function payOnPage(pageUrl: string, fields: Record<string, string>, extra: Record<string, string> = {}) {
  const page = await openPage(pageUrl);
  const answer = await postForm(
    formTarget(pageUrl),
    { token: page.token ?? '', csrf: page.csrf ?? '', ...fields, ...extra },
    page.cookie,
  );
  return { page, answer };
}
