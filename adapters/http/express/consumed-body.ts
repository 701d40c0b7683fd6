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
 * Thrown by `consumedBody` for a parsed form body it cannot put back into
 * `application/x-www-form-urlencoded` (nested deeper than 32 levels, or holding values no form
 * parser makes). Carries `status` 400 and a body-parser style `type`, so that Express answers
 * 400 and `paystateErrorHandler` answers a problem document.
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
 * Whether a name or value a host form parser handed over was not UTF-8 as the client sent it, so
 * that the hosted page, reading the body itself, would refuse it. body-parser's `qs` decodes with
 * `decodeURIComponent` and, when that throws (a `%XX` run that is not UTF-8), keeps the text as it
 * came, `%XX` and all (`Zo%EB` stays `Zo%EB`); a decoder that replaces such bytes leaves U+FFFD. So
 * the text is unreadable when it holds U+FFFD, or when its `%XX` escapes, read as bytes among its
 * own, are not UTF-8. A `%` the client encoded (`100%25`) reaches here decoded (`100%`), with no
 * escape after it, and passes; so does `%41` (sent as `%2541`), which is UTF-8. Only text the
 * client escaped to read as a non-UTF-8 escape (`%25EB`) cannot be told apart, and is refused.
 */
function isUnreadable(text: string): boolean {
  if (text.includes('\uFFFD')) return true;
  // Read as the page reads a form (its `+` becoming a space changes nothing here).
  return PERCENT_BYTE.test(text) && decodeFormComponent(encoder.encode(text)) === undefined;
}

/** A byte that is never UTF-8: a value that was not UTF-8 is handed on as this, to be refused as such. */
const NOT_UTF8 = '%FF';

/**
 * One field of the form as `application/x-www-form-urlencoded`. A value that was not UTF-8
 * (`isUnreadable`) is written as a byte that is not UTF-8 either, so that the hosted page refuses
 * the field as it does without a host parser; a field whose name was not UTF-8 is left out
 * (null), as the page leaves it out.
 */
function formPair(key: string, value: string): string | null {
  if (isUnreadable(key)) return null;
  if (isUnreadable(value)) return `${new URLSearchParams([[key, '']]).toString()}${NOT_UTF8}`;
  return new URLSearchParams([[key, value]]).toString();
}

/**
 * Appends a parsed form value under `key` to `pairs` (`formPair`): strings as they are, an array as the key repeated (as
 * `a=1&a=2` was parsed), an object (body-parser's `extended: true`, the `qs` shape) in bracket
 * notation (`a[b][c]=…`), array items that are objects by index (`a[0][b]=…`), which `qs` reads
 * back into the same shape.
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
 * The request body when a host's body parser already read the stream: the raw bytes when the
 * host kept them in `req.rawBody` (a `verify` hook), else the parsed body serialized again by its
 * `Content-Type`:
 *
 * - JSON (`application/json`, `…+json`): `JSON.stringify`, always. A string is a parsed JSON
 *   string (`express.json({ strict: false })`), not the JSON text: it is sent back quoted.
 * - a form (`application/x-www-form-urlencoded`, `express.urlencoded()`): the fields encoded
 *   again, nested ones (`extended: true`) in bracket notation.
 * - anything else: bytes (`express.raw()`) and text (`express.text()`) as they are, any other
 *   parsed value as JSON.
 *
 * Undefined when the stream is still unread (paystate then reads it itself). Serializing again
 * loses what the parser discarded: duplicate keys, whitespace, field order across repeated form
 * keys, and an empty body that `express.json()` turned into `{}`.
 * @throws UnencodableBodyError for a form body that cannot be encoded again.
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
