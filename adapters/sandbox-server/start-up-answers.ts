import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  jsonAnswer,
  LIVENESS_PATH,
  READINESS_PATH,
  type HttpAnswer,
  problem,
  problemAnswer,
  RETRY_AFTER_SECONDS,
  REQUEST_ID_HEADER,
} from '../http/index.js';

/** The path of a request target, without its query; undefined when it is not a path. */
function pathOf(req: IncomingMessage): string | undefined {
  try {
    // An absolute-form target (`http://host/livez`) gives its own path; an origin-form one, as it is.
    return new URL(req.url ?? '', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** Writes `answer` in one write with its `Content-Length` (no body for `HEAD`). */
function send(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

/**
 * Answers a health probe while storage is being made (`/healthz` 200, `/readyz` 503), so that an
 * orchestrator does not restart a process that is only starting. True when it answered.
 */
export function answerProbeWhileStarting(req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = pathOf(req);
  if (path !== LIVENESS_PATH && path !== READINESS_PATH) return false;
  const answer =
    path === LIVENESS_PATH
      ? jsonAnswer(200, { status: 'ok' })
      : jsonAnswer(503, { status: 'unavailable', problems: ['the server is starting: its storage is being made'] });
  res.setHeader(REQUEST_ID_HEADER, requestId);
  send(req, res, answer);
  return true;
}

/**
 * Answers a request that waited for storage that could not be made: `503 unavailable`, and the
 * connection closed (the server stops listening). The detail says no more: the error, which may
 * name a database, goes to whoever started the server.
 */
export function answerStartFailed(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  if (res.headersSent || res.destroyed) return;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  res.setHeader('connection', 'close');
  const unavailable = problem('unavailable', 'The server could not start: its storage could not be made', {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
  send(req, res, problemAnswer(unavailable));
}
