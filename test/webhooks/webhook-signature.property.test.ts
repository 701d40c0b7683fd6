import fc from 'fast-check';
import { describe, it } from 'vitest';
import { createWebhookSignatureHeader, verifyWebhookSignature } from '../../adapters/webhooks/index.js';
import { NUM_RUNS } from '../support/property-runs.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const T = NOW / 1000;

const secret = fc.string({ minLength: 32, maxLength: 80 });
const secrets = fc.uniqueArray(secret, { minLength: 1, maxLength: 3 });

describe('webhook signatures (property)', () => {
  it('sign then verify round-trips for any body and secrets, with each secret alone', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        secrets,
        fc.integer({ min: -300, max: 300 }),
        (body, keys, skew) => {
          const header = createWebhookSignatureHeader({ payload: body, secrets: keys, timestamp: T + skew });
          return keys.every((key) => verifyWebhookSignature({ payload: body, header, secrets: key, now: NOW }).isOk());
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('round-trips for any text body, given as text or as its UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 512 }), secret, (body, key) => {
        const header = createWebhookSignatureHeader({ payload: body, secrets: key, timestamp: T });
        return (
          verifyWebhookSignature({ payload: body, header, secrets: key, now: NOW }).isOk() &&
          verifyWebhookSignature({ payload: Buffer.from(body, 'utf8'), header, secrets: key, now: NOW }).isOk()
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('fails once any single byte of the body is changed', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        secret,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (body, key, at, delta) => {
          const header = createWebhookSignatureHeader({ payload: body, secrets: key, timestamp: T });
          const changed = Uint8Array.from(body);
          const index = at % changed.length;
          changed[index] = ((changed[index] ?? 0) + delta) % 256;
          const result = verifyWebhookSignature({ payload: changed, header, secrets: key, now: NOW });
          return result.isErr() && result.error.code === 'no_matching_signature';
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('fails with any other secret', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), secret, secret, (body, key, other) => {
        fc.pre(key !== other);
        const header = createWebhookSignatureHeader({ payload: body, secrets: key, timestamp: T });
        return verifyWebhookSignature({ payload: body, header, secrets: other, now: NOW }).isErr();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
