import type { IncomingMessage } from 'node:http';
import { decodeFormComponent } from '../hosted-page/form-body.js';
import { MAX_JSON_DEPTH } from '../json-body.js';

const encoder = new TextEncoder();

/** True when a host's body parser (or anything else) has read the request stream to its end. */
function isBodyConsumed(req: IncomingMessage): boolean {
  return req.readableEnded || (req.complete && !req.readable);
}

/** Deepest form field (`a[b][c]…`) put back together: body-parser's own default `depth` is 32. */
const MAX_FORM_DEPTH = 32;

/**
 * Thrown by `consumedBody` for a parsed form it cannot encode again (over 32 levels deep, values
 * no form parser makes): `status` 400 and a body-parser style `type`, for `paystateErrorHandler`.
 */
export class UnencodableBodyError extends Error {
  override readonly name = 'UnencodableBodyError';
  readonly type = 'paystate.body.unencodable';
  readonly status = 400;
  readonly expose = true;
}

/** The media type of a `Content-Type` header, lower case and without parameters. */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

const isJsonMediaType = (type: string): boolean => type === 'application/json' || type.endsWith('+json');

function encodeJson(body: unknown): Uint8Array {
  try {
    return encoder.encode(JSON.stringify(body) ?? '');
  } catch {
    // Parsed JSON only fails to serialize when nested too deep for the stack: paystate refuses
    // such a body anyway, so hand it one that says so.
    return encoder.encode('['.repeat(MAX_JSON_DEPTH + 1));
  }
}

const PERCENT_BYTE = /%[0-9a-f]{2}/i;

/**
 * Whether a name or value a host form parser handed over was not UTF-8 as sent: it holds U+FFFD,
 * or `%XX` escapes that are not UTF-8 (embedding-http.md, "Body parsers registered before paystate").
 */
function isUnreadable(text: string): boolean {
  if (text.includes('\uFFFD')) return true;
  // Read as the page reads a form (its `+` becoming a space changes nothing here).
  return PERCENT_BYTE.test(text) && decodeFormComponent(encoder.encode(text)) === undefined;
}

/** A byte that is never UTF-8: a value that was not UTF-8 is handed on as this, to be refused as such. */
const NOT_UTF8 = '%FF';

/**
 * One form field encoded again; a value that was not UTF-8 stays not UTF-8 (the page refuses it),
 * a field whose name was not is left out (null), as the page does without a host parser.
 */
function formPair(key: string, value: string): string | null {
  if (isUnreadable(key)) return null;
  if (isUnreadable(value)) return `${new URLSearchParams([[key, '']]).toString()}${NOT_UTF8}`;
  return new URLSearchParams([[key, value]]).toString();
}

/**
 * Appends a parsed form value under `key`: an array as the key repeated, an object (`qs` shape) in
 * bracket notation, array items that are objects by index (`a[0][b]=…`), as `qs` reads them back.
 */
function appendFormValue(pairs: string[], key: string, value: unknown, depth: number): void {
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  ) {
    const pair = formPair(key, String(value));
    if (pair !== null) pairs.push(pair);
  } else if (value === null || value === undefined) {
    appendFormValue(pairs, key, '', depth);
  } else if (depth >= MAX_FORM_DEPTH) {
    throw new UnencodableBodyError('The form body is nested too deeply to be read');
  } else if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => {
      const nested = typeof item === 'object' && item !== null;
      appendFormValue(pairs, nested ? `${key}[${index}]` : key, item, depth + 1);
    });
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) appendFormValue(pairs, `${key}[${name}]`, item, depth + 1);
  } else {
    throw new UnencodableBodyError('The form body holds a value that is not form data');
  }
}

function encodeForm(body: unknown): Uint8Array {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UnencodableBodyError('The form body is not a set of fields');
  }
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(body)) appendFormValue(pairs, name, value, 0);
  return encoder.encode(pairs.join('&'));
}

/**
 * The body a host parser already read: `req.rawBody`, else `req.body` serialized again by its
 * `Content-Type` (embedding-http.md, "Body parsers registered before paystate"); undefined while
 * the stream is unread. @throws UnencodableBodyError for a form that cannot be encoded again.
 */
export function consumedBody(req: IncomingMessage & { body?: unknown; rawBody?: unknown }): Uint8Array | undefined {
  if (!isBodyConsumed(req)) return undefined;
  const raw = req.rawBody;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === 'string') return encoder.encode(raw);
  const body = req.body;
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  const type = mediaTypeOf(req.headers['content-type']);
  if (isJsonMediaType(type)) return encodeJson(body);
  if (typeof body === 'string') return encoder.encode(body);
  if (type === 'application/x-www-form-urlencoded') return encodeForm(body);
  return encodeJson(body);
}
