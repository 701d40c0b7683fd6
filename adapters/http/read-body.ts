import type { IncomingMessage } from 'node:http';
import { err, ok, type Result } from 'neverthrow';

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyReadFailure = 'too_large' | 'unreadable';

/** True when a `Content-Length` header announces more than `limit` bytes. */
export function declaresMoreThan(contentLength: string | null | undefined, limit: number): boolean {
  return (
    contentLength !== null &&
    contentLength !== undefined &&
    /^\s*\d+\s*$/.test(contentLength) &&
    Number(contentLength) > limit
  );
}

/** Joins chunks into one array (no copy for a single chunk). */
export function concatChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a fetch request's body, counting bytes as they stream in: a body over `limit` is
 * refused as soon as it passes the limit (a `Content-Length` over it, at once), whatever the
 * header says.
 */
export async function readFetchBody(
  request: Request,
  limit: number = MAX_BODY_BYTES,
): Promise<Result<Uint8Array, BodyReadFailure>> {
  const declared = request.headers.get('content-length');
  if (declaresMoreThan(declared, limit)) {
    request.body?.cancel().catch(() => undefined);
    return err('too_large');
  }
  // A Content-Length within the limit bounds the body (HTTP framing): read it whole, which lets
  // @hono/node-server read the socket without building a web stream.
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch {
      return err('unreadable');
    }
    // A hand-made Request's header need not match its body.
    return bytes.byteLength > limit ? err('too_large') : ok(bytes);
  }
  const body = request.body;
  if (body === null) return ok(new Uint8Array(0));
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        reader.cancel().catch(() => undefined);
        return err('too_large');
      }
      chunks.push(value);
    }
  } catch {
    return err('unreadable');
  }
  return ok(concatChunks(chunks, total));
}

const EMPTY = new Uint8Array(0);
/** Requests whose whole body `readNodeBody` took from the buffer, before the stream's end came. */
const taken = new WeakSet<IncomingMessage>();

/** Whether `readNodeBody` read all `req`'s body (its stream may not have ended yet). */
export const bodyTaken = (req: IncomingMessage): boolean => taken.has(req);
const ignore = (): void => undefined;

/**
 * Reads a node request's body from the stream, with the limits of `readFetchBody`. A body already
 * read is empty; one the client abandoned is `unreadable`.
 */
export function readNodeBody(
  req: IncomingMessage,
  limit: number = MAX_BODY_BYTES,
): Promise<Result<Uint8Array, BodyReadFailure>> {
  if (declaresMoreThan(req.headers['content-length'], limit)) return Promise.resolve(err('too_large'));
  if (req.readableEnded || (req.complete && !req.readable)) return Promise.resolve(ok(EMPTY));
  // Its `close` has been and gone: a listener attached now would wait for ever.
  if (req.destroyed || req.errored !== null || req.readableAborted) return Promise.resolve(err('unreadable'));
  // The whole body is in the stream's buffer already (the common case): taken at once.
  const length = Number(req.headers['content-length'] ?? NaN);
  if (req.readableLength === length && req.readableFlowing !== true) {
    const bytes = length === 0 ? EMPTY : (req.read() as Uint8Array);
    taken.add(req);
    req.resume();
    return Promise.resolve(ok(bytes));
  }
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const settle = (result: Result<Uint8Array, BodyReadFailure>): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Uint8Array): void => {
      total += chunk.byteLength;
      if (total > limit) {
        req.pause();
        settle(err('too_large'));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => settle(ok(concatChunks(chunks, total)));
    const onClose = (): void => {
      if (!req.readableEnded) settle(err('unreadable'));
    };
    req.on('error', ignore);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}
