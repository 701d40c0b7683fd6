/** What paystate's entry points tell `pages` about a request besides the request itself. */
export interface PageContext {
  /**
   * The request's id (`Request-Id`), made by the entry point: the page runs its engine commands
   * and writes its log lines under it, and the entry point writes it on the page's answer
   * (replacing any `Request-Id` the page set).
   */
  readonly requestId: string;
}

/**
 * Pages outside `/v1` (the hosted payment page, a simulated issuer): a response, or undefined for
 * 404. paystate's entry points pass a `PageContext`; a handler that takes one argument ignores it.
 */
export type PagesHandler = (request: Request, context?: PageContext) => Promise<Response | undefined>;

/** A fetch-standard request handler: what Hono, Bun, Deno, workers and the node/Express bridges call. */
export type FetchHandler = (request: Request) => Promise<Response>;
