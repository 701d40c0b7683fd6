/** PENDING(hono): for `adapters/http/openapi`'s deep imports; delete once it imports `src/domain/webhook-headers.ts`. */
export * from '../../src/domain/webhook-headers.js';
