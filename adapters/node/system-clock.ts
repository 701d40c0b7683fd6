/**
 * PENDING(hono): kept only for `adapters/sandbox-server`'s deep imports of this path; delete it once
 * they take `systemClock` from `adapters/node/index.ts`. The clock itself is `adapters/shared/system-clock.ts`.
 */
export { systemClock } from '../shared/index.js';
