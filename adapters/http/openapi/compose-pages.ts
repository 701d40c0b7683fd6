import type { PagesHandler } from '../page-context.js';

/**
 * One `pages` handler from several: each is asked in turn, with the request's `PageContext`, and
 * the first response wins (`composePages(createOpenApiPages(), hostedPages)`). Undefined when none
 * serves the request.
 */
export function composePages(...handlers: readonly PagesHandler[]): PagesHandler {
  return async (request, context) => {
    for (const handler of handlers) {
      const response = await handler(request, context);
      if (response !== undefined) return response;
    }
    return undefined;
  };
}
