import { err, ok, type Result } from 'neverthrow';
import { readFetchBody } from '../read-body.js';

/** Largest form post the page accepts: the card form is well under 2 KiB. */
const MAX_FORM_BYTES = 16 * 1024;

export type FormBodyFailure = 'unsupported_media_type' | 'too_large' | 'unreadable';

/** A form post, read. */
export interface FormBody {
  /** The fields whose name and value are UTF-8, as a browser sends them. */
  readonly fields: URLSearchParams;
  /**
   * Names of fields whose value is not UTF-8 (bytes of another charset, percent-encoded or not).
   * They are left out of `fields`, never decoded to U+FFFD and passed on: the JSON API refuses
   * such text too. A field whose name is not UTF-8 is left out altogether.
   */
  readonly unreadable: ReadonlySet<string>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * One name or value of `application/x-www-form-urlencoded` bytes (WHATWG URL, "urlencoded
 * parsing"): `+` is a space and `%XX` a byte, a `%` not followed by two hex digits stays as it is;
 * then the bytes are decoded as UTF-8, or undefined when they are not UTF-8.
 */
export function decodeFormComponent(bytes: Uint8Array): string | undefined {
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === 0x25 && i + 2 < bytes.length) {
      const high = hexValue(bytes[i + 1] as number);
      const low = hexValue(bytes[i + 2] as number);
      if (high >= 0 && low >= 0) {
        out[length++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    out[length++] = byte === 0x2b ? 0x20 : byte;
  }
  try {
    return utf8.decode(out.subarray(0, length));
  } catch {
    return undefined;
  }
}

/** Parses urlencoded bytes, keeping apart the fields that are not UTF-8. */
export function parseFormBody(bytes: Uint8Array): FormBody {
  const fields = new URLSearchParams();
  const unreadable = new Set<string>();
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x26, start); // '&'
    if (end === -1) end = bytes.length;
    if (end > start) {
      const pair = bytes.subarray(start, end);
      const equals = pair.indexOf(0x3d); // '='
      const name = decodeFormComponent(equals === -1 ? pair : pair.subarray(0, equals));
      const value = equals === -1 ? '' : decodeFormComponent(pair.subarray(equals + 1));
      if (name !== undefined) {
        if (value === undefined) unreadable.add(name);
        else fields.append(name, value);
      }
    }
    start = end + 1;
  }
  return { fields, unreadable };
}

/** Reads an `application/x-www-form-urlencoded` body of at most `MAX_FORM_BYTES`. */
export async function readFormBody(request: Request): Promise<Result<FormBody, FormBodyFailure>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    request.body?.cancel().catch(() => undefined);
    return err('unsupported_media_type');
  }
  const body = await readFetchBody(request, MAX_FORM_BYTES);
  if (body.isErr()) return err(body.error);
  return ok(parseFormBody(body.value));
}
