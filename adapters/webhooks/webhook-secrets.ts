import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';

/** The shortest webhook secret taken, in characters: 32 (a secret from `generateWebhookSecret` has 49). */
export const MIN_WEBHOOK_SECRET_LENGTH = 32;

/**
 * The most secrets taken at once, and so the most `v1=` signatures a `Paystate-Signature` carries
 * and a verifier reads: 8 (a rotation needs two).
 */
export const MAX_WEBHOOK_SECRETS = 8;

/**
 * A new random webhook secret: `whsec_` and 32 random bytes in base64url (49 characters). The whole
 * string, prefix included, is the HMAC key (as UTF-8); the prefix lets secret scanners find one.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The secrets as a list without repeats, or why they are refused, in words that never repeat a
 * secret: at least one and at most `MAX_WEBHOOK_SECRETS`, each a string of at least `MIN_WEBHOOK_SECRET_LENGTH` characters.
 */
export function checkWebhookSecrets(secrets: unknown): Result<readonly string[], string> {
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  if (list.length === 0) return err('needs at least one secret');
  if (list.length > MAX_WEBHOOK_SECRETS) return err(`takes at most ${MAX_WEBHOOK_SECRETS} secrets`);
  for (const [index, secret] of list.entries()) {
    const which = list.length === 1 ? 'the secret' : `secret ${index + 1} of ${list.length}`;
    if (typeof secret !== 'string') return err(`${which} is not a string`);
    if (secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
      return err(
        `${which} is too short: it needs at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (generateWebhookSecret() makes one)`,
      );
    }
  }
  return ok(Object.freeze([...new Set(list as readonly string[])]));
}

/** `checkWebhookSecrets`, throwing its `RangeError` (`what` names the option). */
export function webhookSecrets(secrets: unknown, what: string): readonly string[] {
  const checked = checkWebhookSecrets(secrets);
  if (checked.isErr()) throw new RangeError(`${what}: ${checked.error}`);
  return checked.value;
}
