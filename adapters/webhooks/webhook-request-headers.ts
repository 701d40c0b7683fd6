import { err, ok, type Result } from 'neverthrow';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_IDEMPOTENCY_KEY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/domain/webhook-headers.js';

/**
 * Headers `headers` may not set (without case): the sink's own, and those that change how the request
 * is framed or routed (`Transfer-Encoding`, `Expect`, `Upgrade`, …).
 */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'host',
  'user-agent',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  WEBHOOK_IDEMPOTENCY_KEY_HEADER.toLowerCase(),
  WEBHOOK_EVENT_ID_HEADER.toLowerCase(),
  WEBHOOK_EVENT_TYPE_HEADER.toLowerCase(),
  WEBHOOK_SIGNATURE_HEADER.toLowerCase(),
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
]);

/** A header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value the sink sends: visible ASCII, spaces and tabs inside, nothing at either end. */
export const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

/** Extra headers, checked, or why they are refused (never quoting a value). */
export function checkHeaders(headers: unknown): Result<Readonly<Record<string, string>>, string> {
  if (headers === undefined) return ok({});
  if (typeof headers !== 'object' || headers === null) return err('headers needs an object of header names and values');
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) return err('headers: a header name is not a valid token');
    const key = name.toLowerCase();
    if (RESERVED_HEADERS.has(key))
      return err(`headers may not set ${name}: the sink sets it, or it changes how the request is sent`);
    if (typeof value !== 'string') return err(`headers: the value of ${name} is not a string`);
    if (!HEADER_VALUE.test(value)) {
      return err(`headers: the value of ${name} is not a valid header value (visible ASCII, no line breaks)`);
    }
    if (Object.keys(out).some((given) => given.toLowerCase() === key)) return err(`headers: ${name} is given twice`);
    out[name] = value;
  }
  return ok(Object.freeze(out));
}

/**
 * Headers of several layers in one record, a later layer's header replacing an earlier one of the
 * same name in any case (an endpoint's `authorization` replaces the sink's `Authorization` rather
 * than being sent beside it, which `fetch` would join into one value).
 */
export function mergeHeaders(...layers: readonly Readonly<Record<string, string>>[]): Readonly<Record<string, string>> {
  const byName = new Map<string, readonly [string, string]>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) byName.set(name.toLowerCase(), [name, value]);
  }
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of byName.values()) out[name] = value;
  return Object.freeze(out);
}
