import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createWebhookSignatureHeader,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  generateWebhookSecret,
  MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH,
  MIN_WEBHOOK_SECRET_LENGTH,
  parseWebhookEvent,
  toWebhookEvent,
  verifyWebhookSignature,
  type VerifyWebhookSignatureOptions,
} from '../../adapters/webhooks/index.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { NEXT_SECRET, SECRET } from './support/webhook-engine.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const T = NOW / 1000;
const BODY = JSON.stringify(toWebhookEvent(makeEvent(makeSucceededRecord(), 'payment.succeeded')));

const signed = (secrets: string | readonly string[] = SECRET, timestamp = T, payload: string | Uint8Array = BODY) =>
  createWebhookSignatureHeader({ payload, secrets, timestamp });

const verify = (options: Partial<VerifyWebhookSignatureOptions>) =>
  verifyWebhookSignature({ payload: BODY, header: signed(), secrets: SECRET, now: NOW, ...options });

const codeOf = (options: Partial<VerifyWebhookSignatureOptions>) => {
  const result = verify(options);
  return result.isErr() ? result.error.code : 'ok';
};

describe('the Paystate-Signature header', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with the secret as key', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signed()).toBe(`t=${T},v1=${expected}`);
  });

  it('carries one v1= per secret, in order, for rotation', () => {
    const header = signed([SECRET, NEXT_SECRET]);
    const [t, first, second, extra] = header.split(',');
    expect(t).toBe(`t=${T}`);
    expect(first).toBe(signed(SECRET).split(',')[1]);
    expect(second).toBe(signed(NEXT_SECRET).split(',')[1]);
    expect(extra).toBeUndefined();
  });

  it('signs bytes and their UTF-8 text alike', () => {
    expect(signed(SECRET, T, Buffer.from(BODY, 'utf8'))).toBe(signed());
  });

  it('refuses secrets shorter than 32 characters, and none, without repeating them', () => {
    const short = 'short-secret-of-31-characters!!';
    expect(short).toHaveLength(MIN_WEBHOOK_SECRET_LENGTH - 1);
    for (const secrets of [short, [SECRET, short], [], '']) {
      expect(() => signed(secrets)).toThrow(RangeError);
      try {
        signed(secrets);
      } catch (error) {
        expect(String((error as Error).message)).not.toContain(short);
        expect(String((error as Error).message)).not.toContain(SECRET);
      }
    }
    expect(() => signed('x'.repeat(MIN_WEBHOOK_SECRET_LENGTH))).not.toThrow();
    expect(() => signed(SECRET, -1)).toThrow(RangeError);
    expect(() => signed(SECRET, 1.5)).toThrow(RangeError);
  });

  it('generateWebhookSecret makes a new secret long enough each time', () => {
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });
});

describe('verifyWebhookSignature', () => {
  it('verifies the body as sent, as text or as bytes, and answers the signature time', () => {
    expect(verify({})._unsafeUnwrap()).toEqual({ timestamp: T });
    expect(verify({ payload: Buffer.from(BODY) }).isOk()).toBe(true);
    expect(verify({ payload: new Uint8Array(Buffer.from(BODY)) }).isOk()).toBe(true);
    // Node's headers object: an array of one is the header.
    expect(verify({ header: [signed()] }).isOk()).toBe(true);
  });

  it('refuses a tampered body', () => {
    expect(codeOf({ payload: BODY.replace('"succeeded"', '"failed"') })).toBe('no_matching_signature');
    expect(codeOf({ payload: `${BODY} ` })).toBe('no_matching_signature');
    // Parsed and serialized again is another body.
    expect(codeOf({ payload: JSON.stringify(JSON.parse(BODY), null, 2) })).toBe('no_matching_signature');
  });

  it('refuses a wrong secret, and a signature made for another time', () => {
    expect(codeOf({ secrets: NEXT_SECRET })).toBe('no_matching_signature');
    const [, v1] = signed().split(',');
    expect(codeOf({ header: `t=${T + 1},${v1}` })).toBe('no_matching_signature');
  });

  it('refuses a timestamp more than the tolerance away, either way, once the signature matches', () => {
    const tolerance = DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
    expect(codeOf({ header: signed(SECRET, T - tolerance) })).toBe('ok');
    expect(codeOf({ header: signed(SECRET, T + tolerance) })).toBe('ok');
    const old = verify({ header: signed(SECRET, T - tolerance - 1) });
    expect(old._unsafeUnwrapErr()).toMatchObject({ code: 'timestamp_out_of_tolerance', timestamp: T - tolerance - 1 });
    expect(codeOf({ header: signed(SECRET, T + tolerance + 1) })).toBe('timestamp_out_of_tolerance');
    expect(codeOf({ header: signed(SECRET, T - 3600), toleranceSeconds: 3600 })).toBe('ok');
    expect(codeOf({ header: signed(SECRET, T - 1), toleranceSeconds: 0 })).toBe('timestamp_out_of_tolerance');
    // An old request with a wrong signature learns nothing of the time.
    expect(codeOf({ header: signed(NEXT_SECRET, T - 3600) })).toBe('no_matching_signature');
  });

  it('takes either secret while one is rotated', () => {
    expect(codeOf({ header: signed([SECRET, NEXT_SECRET]), secrets: SECRET })).toBe('ok');
    expect(codeOf({ header: signed([SECRET, NEXT_SECRET]), secrets: NEXT_SECRET })).toBe('ok');
    expect(codeOf({ header: signed(NEXT_SECRET), secrets: [SECRET, NEXT_SECRET] })).toBe('ok');
    expect(codeOf({ header: signed(SECRET), secrets: [NEXT_SECRET, SECRET] })).toBe('ok');
  });

  it('tells a missing header from a malformed one', () => {
    for (const header of [undefined, null, '', '  ', []])
      expect(codeOf({ header }), String(header)).toBe('missing_header');
    const v1 = `v1=${'a'.repeat(64)}`;
    for (const header of [
      'garbage',
      `t=${T}`,
      v1,
      `t=abc,${v1}`,
      `t=-1,${v1}`,
      `t=${T},t=${T},${v1}`,
      `t=${T},v1=xyz`,
      `t=${T},v1=${'a'.repeat(63)}`,
      `t=${T},${v1},`,
      `t=${T},=${'a'.repeat(64)}`,
      `t=${T},v1=`,
      `t=${T},${v1}`.padEnd(MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH + 1, ' '),
      [signed(), signed()],
    ]) {
      expect(codeOf({ header }), String(header)).toBe('malformed_header');
    }
  });

  it('skips entries of other schemes, and spaces around entries', () => {
    const [t, v1] = signed().split(',');
    expect(codeOf({ header: `${t},v0=abc,${v1},v2=${'f'.repeat(64)}` })).toBe('ok');
    expect(codeOf({ header: `${t}, ${v1}` })).toBe('ok');
    expect(codeOf({ header: `${t},v2=${'f'.repeat(64)}` })).toBe('malformed_header');
  });

  it('never repeats the body, the header or a secret in its messages', () => {
    for (const options of [
      { header: undefined },
      { header: 'garbage-header-text' },
      { payload: `${BODY}x` },
      { header: signed(SECRET, T - 1000) },
    ]) {
      const message = verify(options)._unsafeUnwrapErr().message;
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain('garbage-header-text');
      expect(message).not.toContain('payment_');
    }
  });

  it('throws a RangeError for a bad set-up: short secrets, a negative tolerance, no time', () => {
    expect(() => verify({ secrets: 'short' })).toThrow(RangeError);
    expect(() => verify({ secrets: [] })).toThrow(RangeError);
    expect(() => verify({ toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verify({ toleranceSeconds: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => verify({ now: Number.NaN })).toThrow(RangeError);
  });

  it('reads the system clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature({ payload: BODY, header: signed(SECRET, now), secrets: SECRET }).isOk()).toBe(true);
  });
});

describe('parseWebhookEvent', () => {
  const parse = (payload: string | Uint8Array, header = signed(SECRET, T, payload)) =>
    parseWebhookEvent({ payload, header, secrets: SECRET, now: NOW });

  it('verifies, then answers the event as sent, every field kept', () => {
    expect(parse(BODY)._unsafeUnwrap()).toEqual(JSON.parse(BODY));
    const extended = JSON.stringify({ ...JSON.parse(BODY), added_later: true });
    expect(parse(Buffer.from(extended))._unsafeUnwrap()).toMatchObject({ added_later: true });
  });

  it('does not parse a body whose signature fails', () => {
    expect(parse('not json', signed())._unsafeUnwrapErr().code).toBe('no_matching_signature');
  });

  it('refuses a signed body that is not a webhook event, and tells an unknown type apart', () => {
    expect(parse('not json')._unsafeUnwrapErr().code).toBe('malformed_payload');
    expect(parse(new Uint8Array([0xff, 0xfe]))._unsafeUnwrapErr().code).toBe('malformed_payload');
    expect(parse('{"id":"evt_1"}')._unsafeUnwrapErr()).toMatchObject({ code: 'malformed_payload' });
    const future = JSON.stringify({ ...JSON.parse(BODY), type: 'payment.refunded' });
    expect(parse(future)._unsafeUnwrapErr()).toMatchObject({ code: 'unknown_event_type', type: 'payment.refunded' });
  });
});
