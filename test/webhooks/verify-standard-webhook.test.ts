import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  createStandardWebhookHeaders,
  generateStandardWebhookSecret,
  verifyStandardWebhookSignature,
} from '../../adapters/webhooks/index.js';

const secret = generateStandardWebhookSecret();
const payload = '{"id":"evt_1","type":"payment.created"}';
const now = Date.UTC(2026, 0, 15, 12);
const timestamp = Math.floor(now / 1000);
const signed = createStandardWebhookHeaders({ payload, id: 'evt_1', secrets: secret, timestamp });

const verify = (headers: Record<string, string>, secrets: string | readonly string[] = secret) =>
  verifyStandardWebhookSignature({ payload, headers, secrets, now });

describe('verifyStandardWebhookSignature', () => {
  it('takes the headers in any case, and a fetch Headers, and skips signatures of other versions', () => {
    expect(
      verify({
        'Webhook-Id': 'evt_1',
        'WEBHOOK-TIMESTAMP': String(timestamp),
        'webhook-signature': signed['webhook-signature'] ?? '',
      })._unsafeUnwrap(),
    ).toEqual({ id: 'evt_1', timestamp });
    const fetchHeaders = new Headers(signed);
    expect(
      verifyStandardWebhookSignature({
        payload: Buffer.from(payload),
        headers: fetchHeaders,
        secrets: secret,
        now,
      }).isOk(),
    ).toBe(true);
    const withOthers = `v1a,${'A'.repeat(86)}== ${signed['webhook-signature']}`;
    expect(verify({ ...signed, 'webhook-signature': withOthers }).isOk()).toBe(true);
  });

  it('verifies with any of the secrets given, as the library does with the one it knows', () => {
    const other = generateStandardWebhookSecret();
    expect(verify(signed, [other, secret]).isOk()).toBe(true);
    expect(verify(signed, other)._unsafeUnwrapErr().code).toBe('no_matching_signature');
    const both = createStandardWebhookHeaders({ payload, id: 'evt_1', secrets: [other, secret], timestamp });
    expect(both['webhook-signature']?.split(' ')).toContain(
      new Webhook(other).sign('evt_1', new Date(timestamp * 1000), payload),
    );
  });

  it.each([
    ['no webhook-id', { 'webhook-id': '' }, 'missing_header'],
    ['a timestamp that is not seconds', { 'webhook-timestamp': '2026-01-15' }, 'malformed_header'],
    ['a signature without a version', { 'webhook-signature': 'abc' }, 'malformed_header'],
    ['a v1 that is not 32 bytes of base64', { 'webhook-signature': 'v1,abc' }, 'malformed_header'],
    ['no v1 at all', { 'webhook-signature': `v1a,${'A'.repeat(86)}==` }, 'malformed_header'],
    ['too long a header', { 'webhook-signature': `v1,${'A'.repeat(5000)}` }, 'malformed_header'],
    ['a time an hour off', { 'webhook-timestamp': String(timestamp + 3600) }, 'no_matching_signature'],
  ])('refuses %s', (_, change, code) => {
    expect(verify({ ...signed, ...change })._unsafeUnwrapErr().code).toBe(code);
  });

  it('says when the signature matched but the time is out of tolerance', () => {
    const late = verifyStandardWebhookSignature({ payload, headers: signed, secrets: secret, now: now + 301_000 });
    expect(late._unsafeUnwrapErr()).toMatchObject({ code: 'timestamp_out_of_tolerance', timestamp });
    const lenient = verifyStandardWebhookSignature({
      payload,
      headers: signed,
      secrets: secret,
      now: now + 301_000,
      toleranceSeconds: 400,
    });
    expect(lenient.isOk()).toBe(true);
  });

  it('refuses a bad set-up with a RangeError, never an err', () => {
    expect(() => verify(signed, [])).toThrow(RangeError);
    expect(() =>
      verifyStandardWebhookSignature({ payload, headers: signed, secrets: secret, toleranceSeconds: -1 }),
    ).toThrow(RangeError);
    expect(() => createStandardWebhookHeaders({ payload, id: 'evt.1', secrets: secret, timestamp })).toThrow(
      /without "\."/,
    );
  });
});
