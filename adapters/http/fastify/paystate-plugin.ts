import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Hono } from 'hono';
import { createApp, type FetchHandlerOptions } from '../app.js';
import type { AppEnv } from '../app-env.js';
import { normalizeBasePath, stripBasePath } from '../base-path.js';
import { presentHostAuthorization } from '../host-headers.js';
import { nodeListener } from '../node-server.js';
import { addMount } from './fastify-mounts.js';

/** Options of `paystate()` for Fastify: those of `createFetchHandler`. */
export type PaystateFastifyOptions = FetchHandlerOptions;

/** What the plugin knows of a request it hands to the node listener. */
interface Handing {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Answer the host's 404 (`reply.callNotFound()`) when neither the API nor a page answers. */
  readonly passThrough: boolean;
}

/**
 * Fastify's refusals of a request before its handler that paystate answers itself, as it would
 * on bare node:http: a `Content-Type` that does not parse, a `QUERY` without one.
 */
const REFUSALS_PAYSTATE_ANSWERS: ReadonlySet<string> = new Set([
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_ROUTE_MISSING_CONTENT_TYPE',
]);

/** A request target with `prefix` taken off its path, as Express's `req.url` is below a mount. */
function targetBelow(target: string, prefix: string): string {
  if (prefix === '') return target;
  const cut = target.search(/[?#]/);
  const path = cut < 0 ? target : target.slice(0, cut);
  const stripped = stripBasePath(path, prefix);
  return stripped === path ? target : `${stripped}${cut < 0 ? '' : target.slice(cut)}`;
}

/**
 * The v1 API and `pages` as a Fastify 5 plugin under Fastify's `prefix`, with paystate's own body
 * handling (every error a problem document); what it routes, links and the client's address:
 * guides/fastify.md. Throws at once for options out of range.
 */
export function paystate(options: PaystateFastifyOptions): FastifyPluginCallback {
  // Built here so that options out of range throw now, not when Fastify loads the plugin.
  const app = createApp(options);
  const fixedBase = options.basePath === undefined ? undefined : normalizeBasePath(options.basePath);
  const plugin: FastifyPluginCallback = (instance, _pluginOptions, done) => {
    try {
      mount(instance, app, options, fixedBase);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
  Object.assign(plugin, {
    [Symbol.for('fastify.display-name')]: 'paystate',
    [Symbol.for('plugin-meta')]: { name: 'paystate', fastify: '5.x' },
  });
  return plugin;
}

/** Registers the routes, the parser and the handlers in the plugin's scope (`instance`). */
function mount(
  instance: FastifyInstance,
  app: Hono<AppEnv>,
  options: PaystateFastifyOptions,
  fixedBase: string | undefined,
): void {
  const prefix = instance.prefix;
  // The app routes the target below the prefix (as Express strips its mount path); links go under it.
  const basePath = fixedBase ?? prefix;
  const handings = new WeakMap<IncomingMessage, Handing>();
  const listener = nodeListener(
    async (request, env) => {
      const handing = handings.get(env.incoming);
      let handed = false;
      const response = await app.fetch(request, {
        basePath,
        ...(handing?.passThrough === true && {
          passThrough: () => {
            handed = true;
          },
        }),
      });
      if (handed) {
        // Neither the API nor a page answered: the host's not-found handler does, body unread.
        handing?.reply.callNotFound();
        return undefined;
      }
      handing?.reply.hijack();
      return response;
    },
    { ...options, clientAddress: (req) => handings.get(req)?.request.ip },
  );
  const serve = (passThrough: boolean) => (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    handings.set(raw, { request, reply, passThrough });
    if (!passThrough) reply.hijack();
    presentHostAuthorization(raw);
    const target = raw.url ?? '/';
    // The listener reads the target at once; Fastify's hooks and logs keep the client's.
    raw.url = targetBelow(target, prefix);
    try {
      listener(raw, reply.raw);
    } finally {
      raw.url = target;
    }
  };

  // paystate reads the body itself, by its own limits and rules: every parser leaves it unread.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, parsed) => {
    parsed(null, undefined);
  });
  instance.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code !== undefined && REFUSALS_PAYSTATE_ANSWERS.has(error.code) && !reply.sent) {
      serve(false)(request, reply);
      return;
    }
    // The host's hooks' errors are the host's: its error handler answers them.
    throw error;
  });
  instance.all('/v1', serve(false));
  instance.all('/v1/*', serve(false));
  const pages = options.pages !== undefined;
  if (prefix !== '') instance.setNotFoundHandler(serve(false));
  else if (pages) instance.all('/*', serve(true));
  // For `paystateFrameworkErrors`: the router's refusals under this mount are paystate's to answer.
  addMount(instance.server, { prefix, serve: serve(false) });
}
