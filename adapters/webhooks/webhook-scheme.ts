import { err, ok, type Result } from 'neverthrow';
import { checkStandardWebhookSecrets } from './standard-webhook-secret.js';
import { WEBHOOK_SIGNATURE_HEADER } from '../../src/domain/webhook-headers.js';
import { checkWebhookSecrets } from './webhook-secrets.js';
import { signatureHeader, standardSignatureHeaders } from './webhook-signature.js';

/**
 * How webhook requests are signed (docs/webhooks.md#signature-schemes-and-secret-formats): `paystate`
 * (the default, any secret of 32+ characters) or `standard-webhooks` (a `whsec_<base64>` secret).
 */
export type WebhookSignatureScheme = 'paystate' | 'standard-webhooks';

/** The schemes, the default first. */
export const WEBHOOK_SIGNATURE_SCHEMES: readonly WebhookSignatureScheme[] = Object.freeze([
  'paystate',
  'standard-webhooks',
]);

/** The signature headers of one request, given the event id, the time (Unix seconds) and the body. */
export type WebhookSigner = (id: string, timestamp: number, body: string) => Record<string, string>;

/** The scheme, or why it is refused. */
export function checkWebhookScheme(scheme: unknown): Result<WebhookSignatureScheme, string> {
  return (WEBHOOK_SIGNATURE_SCHEMES as readonly unknown[]).includes(scheme)
    ? ok(scheme as WebhookSignatureScheme)
    : err(`scheme needs one of ${WEBHOOK_SIGNATURE_SCHEMES.join(', ')} (got ${String(scheme)})`);
}

/** A signer with `secrets` under `scheme`, or why the secrets are refused for it (never repeating one). */
export function webhookSigner(scheme: WebhookSignatureScheme, secrets: unknown): Result<WebhookSigner, string> {
  if (scheme === 'standard-webhooks') {
    return checkStandardWebhookSecrets(secrets).map(
      (keys): WebhookSigner =>
        (id, timestamp, body) =>
          standardSignatureHeaders(keys, id, timestamp, body),
    );
  }
  return checkWebhookSecrets(secrets).map((checked): WebhookSigner => (_id, timestamp, body) => ({
    [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(checked, timestamp, body),
  }));
}
