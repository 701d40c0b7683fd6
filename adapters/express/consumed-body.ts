import type { IncomingMessage } from 'node:http';
import { MAX_JSON_DEPTH } from '../http/json-body.js';
import { isBodyConsumed } from '../node/fetch-bridge.js';

const encoder = new TextEncoder();

/**
 * The request body when a host's body parser (e.g. `express.json()`) already read the stream:
 * the raw bytes when the host kept them in `req.rawBody` (a `verify` hook), else the parsed body
 * serialized again (`JSON.stringify` for parsed JSON, as is for `express.raw()`/`express.text()`).
 * Undefined when the stream is still unread (paystate then reads it itself).
 *
 * Serializing again loses what the parser discarded: duplicate keys, whitespace, and an empty
 * body that `express.json()` turned into `{}`.
 */
export function consumedBody(req: IncomingMessage & { body?: unknown; rawBody?: unknown }): Uint8Array | undefined {
  if (!isBodyConsumed(req)) return undefined;
  const raw = req.rawBody;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === 'string') return encoder.encode(raw);
  const body = req.body;
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return encoder.encode(body);
  try {
    return encoder.encode(JSON.stringify(body) ?? '');
  } catch {
    // Parsed JSON only fails to serialize when nested too deep for the stack: paystate refuses
    // such a body anyway, so hand it one that says so.
    return encoder.encode('['.repeat(MAX_JSON_DEPTH + 1));
  }
}
