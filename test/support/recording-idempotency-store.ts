import { createMemoryIdempotencyStore, type MemoryIdempotencyStore } from '../../adapters/memory/index.js';
import type { StoredResponse } from '../../src/index.js';

/** An in-memory idempotency store that also lists every answer it was given to keep (`completed`). */
export function recordingIdempotencyStore(): { store: MemoryIdempotencyStore; completed: StoredResponse[] } {
  const idempotency = createMemoryIdempotencyStore();
  const completed: StoredResponse[] = [];
  const store: MemoryIdempotencyStore = {
    ...idempotency,
    begin: (request) => idempotency.begin(request),
    complete: (request) => {
      completed.push(request.response);
      return idempotency.complete(request);
    },
    release: (request) => idempotency.release(request),
    purgeExpired: (now) => idempotency.purgeExpired(now),
  };
  return { store, completed };
}
