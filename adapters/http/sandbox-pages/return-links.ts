import { createHmac } from 'node:crypto';
import { headerLocation } from '../hosted-page/page-response.js';
import { decodeSegment } from '../hosted-page/page-target.js';
import { secretEqual } from '../hosted-page/secret-equal.js';

/** The path of the sandbox's own return page: a `session.redirect_url` of `{base}/sandbox/return`. */
export const RETURN_PATH = '/sandbox/return';

/** The pages that send a browser back to `session.redirect_url`, and where their path names the payment. */
const PAYMENT_PAGES: readonly RegExp[] = [/^\/pay\/([^/]+)$/, /^\/sandbox\/issuer\/challenge\/([^/]+)\/[^/]+$/];

/**
 * The links to the sandbox's return page (`RETURN_PATH`). A `session.redirect_url` is fixed when
 * the payment is created, before it has an id; the sandbox adds the payment's id to the return,
 * with a proof that the sandbox sent the browser back from that payment's own pages.
 */
export interface ReturnLinks {
  /** The proof for `paymentId`: an HMAC of it, which only the sandbox's key makes. */
  proof(paymentId: string): string;
  /** Whether `proof` is the proof for `paymentId` (in constant time). */
  verify(paymentId: string, proof: string): boolean;
  /**
   * `response` of the hosted page or the issuer page answering `request`: when it sends the
   * browser (303) to the return page of this sandbox's origin, a copy whose `Location` also names
   * the payment (`payment_id`) and carries its `proof`; any other answer as it is.
   */
  stamp(request: Request, response: Response): Response;
}

function paymentOfPage(pathname: string): string | undefined {
  for (const page of PAYMENT_PAGES) {
    const segment = page.exec(pathname)?.[1];
    if (segment !== undefined) return decodeSegment(segment);
  }
  return undefined;
}

/**
 * The return links of a sandbox at `baseUrl()`, their proofs made with a key derived from `secret`
 * (the pages' CSRF key, shared by instances on one database: any of them verifies a proof).
 */
export function createReturnLinks(secret: string, baseUrl: () => string): ReturnLinks {
  const key = createHmac('sha256', secret).update('paystate sandbox return page').digest();
  const proof = (paymentId: string): string => createHmac('sha256', key).update(paymentId).digest('base64url');
  return {
    proof,
    verify: (paymentId, given) => secretEqual(given, proof(paymentId)),
    stamp(request, response) {
      const location = response.headers.get('location');
      if (response.status !== 303 || location === null || !URL.canParse(location)) return response;
      const target = new URL(location);
      if (target.origin !== new URL(baseUrl()).origin || target.pathname !== RETURN_PATH) return response;
      const paymentId = paymentOfPage(new URL(request.url).pathname);
      if (paymentId === undefined) return response;
      target.searchParams.set('payment_id', paymentId);
      target.searchParams.set('proof', proof(paymentId));
      const headers = new Headers(response.headers);
      headers.set('location', headerLocation(target.href));
      return new Response(null, { status: 303, statusText: response.statusText, headers });
    },
  };
}
