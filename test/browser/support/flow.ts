import type { Page } from 'playwright-core';
import type { SandboxServer } from '../../../adapters/sandbox-server/index.js';
import { get, post } from '../../http/support/client.js';
import { directRequest, hostedRequest } from '../../support/requests.js';

export const HOSTED_TOKEN = 'sandbox_hosted_only_token';
export const PCI_TOKEN = 'sandbox_pci_compliant_token';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON as the tests read it
type Json = any;

/** Creates a hosted payment returning to `returnUrl`; its `next.redirect` is the hosted page. */
export async function createHosted(server: SandboxServer, returnUrl: string): Promise<Json> {
  const created = await post(
    `${server.url}/v1/profiles/profile_webshop/payments`,
    HOSTED_TOKEN,
    hostedRequest({ session: { redirect_url: returnUrl } }),
  );
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  return created.json;
}

/** Creates a direct-flow payment with card `number`, as a PCI DSS compliant client. */
export async function createDirect(server: SandboxServer, number: string, returnUrl: string): Promise<Json> {
  const created = await post(
    `${server.url}/v1/profiles/profile_webshop/payments`,
    PCI_TOKEN,
    directRequest(number, { session: { redirect_url: returnUrl } }),
  );
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  return created.json;
}

/** The payment read back over the API: `GET /v1/profiles/{profile}/payments/{id}`. */
export async function readPayment(server: SandboxServer, id: string, token = HOSTED_TOKEN): Promise<Json> {
  const answer = await get(`${server.url}/v1/profiles/profile_webshop/payments/${id}`, token);
  if (answer.status !== 200) throw new Error(`read failed: ${answer.status}`);
  return answer.json;
}

/** Types the card into the hosted page the way a cardholder would, field by field. */
export async function typeCard(page: Page, number: string, options: { cvc?: string; expiry?: string } = {}) {
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry').pressSequentially(options.expiry ?? '1230');
  await page.getByLabel('Security code').pressSequentially(options.cvc ?? (number.startsWith('3') ? '1234' : '123'));
  await page.getByLabel('Name on card').pressSequentially('Ada Lovelace');
}

/** Collects console errors and page errors (a CSP violation is reported as a console error). */
export function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
