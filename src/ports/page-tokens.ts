/**
 * Makes the token of a payment's hosted page link from a key that is kept out of storage (e.g. a
 * keyed HMAC of the payment id): nothing of the link is stored, so a dump of the payments, the
 * outbox or the idempotency keys holds no link that opens the card form. Every instance that
 * serves the API or the page must hold the same key. Without this port the engine draws a random
 * token and stores it with the payment (one instance, development): its links are in dumps.
 */
export interface PageTokens {
  /**
   * The token of `paymentId`'s hosted page: URL-safe, the same on every call and every instance
   * that holds the key, and unguessable without it. Synchronous: it is read whenever a payment
   * awaiting card data is shown, and checked on every request of its page.
   */
  tokenFor(paymentId: string): string;
}
