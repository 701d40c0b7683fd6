import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { MAX_WEBHOOK_SECRETS } from './webhook-secrets.js';

/** What a Standard Webhooks secret starts with: `whsec_`, then the key in standard base64. */
export const STANDARD_WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The key lengths the Standard Webhooks spec takes, in bytes: 24 to 64. */
export const MIN_STANDARD_WEBHOOK_KEY_BYTES = 24;
export const MAX_STANDARD_WEBHOOK_KEY_BYTES = 64;

/**
 * A new random secret for the `standard-webhooks` scheme: `whsec_` and 32 random bytes in standard
 * base64, padded (50 characters). The HMAC key is the decoded bytes, not the string.
 */
export function generateStandardWebhookSecret(): string {
  return `${STANDARD_WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HINT = 'generateStandardWebhookSecret() makes one';

/** The HMAC key of one secret, or why it is refused (`which` names it; the secret is never repeated). */
function standardKey(secret: unknown, which: string): Result<Buffer, string> {
  if (typeof secret !== 'string') return err(`${which} is not a string`);
  if (!secret.startsWith(STANDARD_WEBHOOK_SECRET_PREFIX)) {
    return err(
      `${which} does not start with whsec_: the standard-webhooks scheme takes whsec_ and a base64 key (${HINT})`,
    );
  }
  const encoded = secret.slice(STANDARD_WEBHOOK_SECRET_PREFIX.length);
  if (BASE64URL.test(encoded) && (/[-_]/.test(encoded) || encoded.length % 4 !== 0)) {
    return err(
      `${which} is in base64url without padding, the form of generateWebhookSecret() for the paystate scheme: ` +
        `the standard-webhooks scheme decodes the key as standard base64 (+ and /, padded with =), ${HINT}`,
    );
  }
  const key = Buffer.from(encoded, 'base64');
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0 || key.toString('base64') !== encoded) {
    return err(`${which} is not whsec_ and standard base64 with its = padding (${HINT})`);
  }
  if (key.length < MIN_STANDARD_WEBHOOK_KEY_BYTES || key.length > MAX_STANDARD_WEBHOOK_KEY_BYTES) {
    return err(
      `${which} decodes to ${key.length} bytes: the standard-webhooks scheme takes ` +
        `${MIN_STANDARD_WEBHOOK_KEY_BYTES} to ${MAX_STANDARD_WEBHOOK_KEY_BYTES} (${HINT})`,
    );
  }
  return ok(key);
}

/**
 * The HMAC keys of Standard Webhooks secrets, without repeats, or why they are refused, in words
 * that never repeat a secret: one to `MAX_WEBHOOK_SECRETS`, each `whsec_` and 24 to 64 bytes in
 * standard base64.
 */
export function checkStandardWebhookSecrets(secrets: unknown): Result<readonly Buffer[], string> {
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  if (list.length === 0) return err('needs at least one secret');
  if (list.length > MAX_WEBHOOK_SECRETS) return err(`takes at most ${MAX_WEBHOOK_SECRETS} secrets`);
  const keys: Buffer[] = [];
  for (const [index, secret] of list.entries()) {
    const key = standardKey(secret, list.length === 1 ? 'the secret' : `secret ${index + 1} of ${list.length}`);
    if (key.isErr()) return err(key.error);
    if (!keys.some((known) => known.equals(key.value))) keys.push(key.value);
  }
  return ok(Object.freeze(keys));
}
