import type { FetchHandlerOptions } from '../../adapters/http/index.js';
import type { Logger } from '../../src/index.js';
import type { LogLine } from '../http/support/api-harness.js';

/*
 * What the Request-Id tests of the generic bridges share (test/http/request-id-node-bridge.test.ts,
 * test/express/request-id-router.test.ts): the handlers whose answers node refuses to write, and
 * how to read the ids of the answers and of the log lines; the Request-Id tests of pages
 * (test/http/request-id-pages.test.ts, test/express/request-id-pages.test.ts) read ids the same way.
 */

/** A `Request-Id` of the default form: `req_` and 32 hex digits. */
export const DEFAULT_REQUEST_ID = /^req_[0-9a-f]{32}$/;

/** The `Request-Id` of an answer. */
export const idOf = (answer: { readonly headers: Readonly<Record<string, unknown>> }): unknown =>
  answer.headers['request-id'];

/** The log lines with this message. */
export const linesWith = (logs: readonly LogLine[], message: string): LogLine[] =>
  logs.filter((line) => line.message === message);

/** A logger that keeps every line, at every level. */
export function recordingLogger(): Logger & { readonly logs: LogLine[] } {
  const logs: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void =>
      void logs.push({ level, fields, message });
  return { logs, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Pages whose `/odd` answer node refuses to write (a control character in a header value); records each page's id. */
export function oddPages(ids: string[]): NonNullable<FetchHandlerOptions['pages']> {
  return async (request, context) => {
    if (new URL(request.url).pathname !== '/odd') return undefined;
    ids.push(context?.requestId ?? '');
    return new Response('ok', { status: 200, headers: { 'x-note': 'fine', 'x-odd': 'a\u0001b' } });
  };
}

/**
 * A fetch handler that is not paystate's (a Hono app, say): it writes no `Request-Id` of its own,
 * except on `/odd-id`, where the id itself is what node refuses; `/fine` answers 200, `/odd` an
 * answer node refuses, any other path rejects.
 */
export async function foreignHandler(request: Request): Promise<Response> {
  switch (new URL(request.url).pathname) {
    case '/fine':
      return new Response('fine', { status: 200, headers: { 'content-type': 'text/plain' } });
    case '/odd':
      return new Response('odd', { status: 200, headers: { 'x-odd': 'a\u0001b' } });
    case '/odd-id':
      return new Response('odd', { status: 200, headers: { 'request-id': 'req_1\u0001injected' } });
    default:
      throw new Error('handler bug');
  }
}
