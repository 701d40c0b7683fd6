import type { FastifyReply, FastifyRequest } from 'fastify';

/** One registration of the plugin: where it is mounted and how it serves a request. */
export interface FastifyMount {
  /** Fastify's prefix of the plugin's scope (`''` at the root). */
  readonly prefix: string;
  /** Hands the request to paystate, which answers it. */
  readonly serve: (request: FastifyRequest, reply: FastifyReply) => void;
}

/** The plugin's registrations on each server (`instance.server`), most specific prefix first. */
const mounts = new WeakMap<object, FastifyMount[]>();

/** Records a registration of the plugin on `server`. */
export function addMount(server: object, mount: FastifyMount): void {
  const list = mounts.get(server) ?? [];
  list.push(mount);
  list.sort((a, b) => b.prefix.length - a.prefix.length);
  mounts.set(server, list);
}

/** Whether a raw request path is `prefix` or below it. */
const below = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The registration of the plugin on `server` that answers a request at `target` (as the client
 * wrote it): one whose prefix holds the path, or the one at the root for a path under `/v1`.
 * Undefined when none does.
 */
export function mountFor(server: object, target: string): FastifyMount | undefined {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  return mounts.get(server)?.find((mount) => below(path, mount.prefix === '' ? '/v1' : mount.prefix));
}
