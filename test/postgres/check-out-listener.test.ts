import { EventEmitter } from 'node:events';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOut } from '../../adapters/postgres/connection.js';

/**
 * A connection the pool has just made is handed over from the handler of its first
 * `ReadyForQuery`; a `FATAL` in the same chunk (a backend terminated at once) is emitted as
 * `error` before any microtask runs. `checkOut` must be listening by then: the pool has taken its
 * own listener off, and an unheard `error` is an uncaught exception that ends the process.
 */

/** A pg client whose connection dies right after it is handed over, before any microtask of the caller. */
class DyingClient extends EventEmitter {
  connect(callback: (error?: Error) => void): void {
    // Queued before the pool hands the client over (inside `callback`), so it runs before the
    // microtask in which a promise-based caller would add its listener.
    queueMicrotask(() => this.emit('error', new Error('terminating connection due to administrator command')));
    callback();
  }
  query(): Promise<never> {
    return Promise.reject(new Error('Connection terminated'));
  }
  end(callback?: () => void): void {
    callback?.();
  }
}

const uncaught: unknown[] = [];
const record = (error: unknown) => void uncaught.push(error);
// vitest reports an uncaught exception of a test as an error of the run: take them over here.
let vitestListeners: NodeJS.UncaughtExceptionListener[] = [];

beforeEach(() => {
  uncaught.length = 0;
  vitestListeners = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', record);
});
afterEach(() => {
  process.off('uncaughtException', record);
  for (const listener of vitestListeners) process.on('uncaughtException', listener);
});

describe('checkOut', () => {
  it('hears the error of a connection that dies as it is handed over, and discards it on release', async () => {
    const pool = new pg.Pool({ Client: DyingClient as unknown as typeof pg.Client, max: 1 });
    pool.on('error', () => undefined);
    const removed: unknown[] = [];
    pool.on('remove', (client) => removed.push(client));
    const connection = await checkOut(pool);
    await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught).toEqual([]);
    connection.release();
    // The error marked it failed: released, it is closed rather than kept.
    expect(removed).toEqual([connection.client]);
    await pool.end();
  });
});
