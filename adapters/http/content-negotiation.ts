import { problem, type Problem } from './problem-details.js';

interface MediaType {
  readonly type: string;
  readonly parameters: ReadonlyMap<string, string>;
}

function parseMediaType(text: string): MediaType | null {
  const [essence = '', ...rawParameters] = text.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*-]+$/.test(type)) return null;
  const parameters = new Map<string, string>();
  for (const raw of rawParameters) {
    const index = raw.indexOf('=');
    if (index <= 0) continue;
    const name = raw.slice(0, index).trim().toLowerCase();
    let value = raw.slice(index + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    parameters.set(name, value.toLowerCase());
  }
  return { type, parameters };
}

/** Media ranges under which a JSON (or problem+json) answer is acceptable. */
const JSON_RANGES: ReadonlySet<string> = new Set([
  '*/*',
  'application/*',
  'application/json',
  'application/problem+json',
  'application/*+json',
]);

/**
 * True when the `Accept` header allows a JSON answer: absent or empty, or any range with a
 * non-zero quality among `*\/*`, `application/*`, `application/json`, `application/*+json`,
 * `application/problem+json`.
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  for (const part of accept.split(',')) {
    const media = parseMediaType(part);
    if (media === null || !JSON_RANGES.has(media.type)) continue;
    const q = media.parameters.get('q');
    if (q === undefined || Number(q) > 0) return true;
  }
  return false;
}

/** True for `application/json`, with no charset or `charset=utf-8`. */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const media = parseMediaType(contentType);
  if (media === null || media.type !== 'application/json') return false;
  const charset = media.parameters.get('charset');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** True when the body is sent as it is: no `Content-Encoding`, or `identity` (this API decodes none). */
export function isIdentityEncoding(contentEncoding: string | null): boolean {
  return (
    contentEncoding === null || contentEncoding.trim() === '' || contentEncoding.trim().toLowerCase() === 'identity'
  );
}

export function notAcceptable(): Problem {
  return problem('not_acceptable', 'This API answers application/json (errors: application/problem+json)');
}

export function unsupportedMediaType(): Problem {
  return problem('unsupported_media_type', 'Send the request body as application/json (UTF-8)');
}

/** RFC 9110 section 15.5.16: a content coding the server does not decode is a 415. */
export function unsupportedContentEncoding(): Problem {
  return problem('unsupported_media_type', 'Send the request body without a Content-Encoding (no gzip, deflate or br)');
}
