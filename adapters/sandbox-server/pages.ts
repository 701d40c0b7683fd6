import type { PagesHandler } from '../http/fetch-handler.js';
import type { SandboxApp } from './sandbox-app.js';

const HOSTED_PAGE = /^\/pay\/([^/]+)$/;
const ISSUER_PAGE = /^\/sandbox\/issuer\/challenge\/([^/]+)\/([^/]+)$/;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function placeholder(title: string, message: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</body>
</html>
`;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}

/**
 * The browser pages of the sandbox, outside `/v1`: the hosted payment page (`/pay/{payment_id}`)
 * and the simulated issuer's challenge page (`/sandbox/issuer/challenge/{payment_id}/{transaction_id}`).
 * Placeholders for now: they say the page is not built yet.
 */
export function createSandboxPages(_app: SandboxApp): PagesHandler {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const path = new URL(request.url).pathname;
    if (HOSTED_PAGE.test(path)) {
      return placeholder(
        'Hosted payment page',
        'The hosted payment page is not built yet. The payment stays processing until it expires.',
      );
    }
    if (ISSUER_PAGE.test(path)) {
      return placeholder(
        'Simulated issuer',
        'The simulated issuer challenge page is not built yet. The payment stays processing until the challenge expires.',
      );
    }
    return undefined;
  };
}
