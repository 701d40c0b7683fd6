import { err, ok, type Result } from 'neverthrow';
import { readFetchBody } from '../http/read-body.js';

/** Largest form post the page accepts: the card form is well under 2 KiB. */
export const MAX_FORM_BYTES = 16 * 1024;

export type FormBodyFailure = 'unsupported_media_type' | 'too_large' | 'unreadable';

/** Reads an `application/x-www-form-urlencoded` body of at most `MAX_FORM_BYTES`. */
export async function readFormBody(request: Request): Promise<Result<URLSearchParams, FormBodyFailure>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    request.body?.cancel().catch(() => undefined);
    return err('unsupported_media_type');
  }
  const body = await readFetchBody(request, MAX_FORM_BYTES);
  if (body.isErr()) return err(body.error);
  return ok(new URLSearchParams(new TextDecoder().decode(body.value)));
}
