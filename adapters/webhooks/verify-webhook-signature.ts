import { timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/domain/webhook-headers.js';
import { systemClock } from '../shared/index.js';
import { checkStandardWebhookSecrets } from './standard-webhook-secret.js';
import { MAX_WEBHOOK_SECRETS, webhookSecrets } from './webhook-secrets.js';
import { payloadData, webhookSignature, type WebhookPayload } from './webhook-signature.js';

/** How far a signature's time may be from the receiver's, by default: 300 seconds (five minutes). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The longest `Paystate-Signature` value read: 4,096 characters (a few dozen signatures). */
export const MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH = 4096;

/**
 * Why a webhook request is not taken as signed, by a stable `code` (docs/webhooks.md#verifying); messages
 * never repeat the body, the header or a secret.
 */
export type WebhookVerificationError =
  | { readonly code: 'missing_header'; readonly message: string }
  | { readonly code: 'malformed_header'; readonly message: string }
  | { readonly code: 'no_matching_signature'; readonly message: string }
  | { readonly code: 'timestamp_out_of_tolerance'; readonly message: string; readonly timestamp: number };

/** The stable `code` of a `WebhookVerificationError`. */
export type WebhookVerificationErrorCode = WebhookVerificationError['code'];

/** What `verifyWebhookSignature` checks. */
export interface VerifyWebhookSignatureOptions {
  /**
   * The raw body as received, before any JSON parsing: its bytes (a `Buffer` is a `Uint8Array`; the
   * `ArrayBuffer` of `await request.arrayBuffer()`), or its text decoded as UTF-8. A body parsed and
   * serialized again does not verify; a parsed one (an object) is a `TypeError`.
   */
  readonly payload: WebhookPayload;
  /**
   * The `Paystate-Signature` header as the framework gives it: `request.headers.get(…)` (a string or
   * `null`), node's `req.headers['paystate-signature']` (a string, or `undefined`), an array of one.
   */
  readonly header: string | readonly string[] | null | undefined;
  /** The endpoint's secret, or several while one is rotated: a signature made with any of them counts. */
  readonly secrets: string | readonly string[];
  /** How far `t` may be from `now`, either way, in seconds. Default `DEFAULT_WEBHOOK_TOLERANCE_SECONDS` (300). */
  readonly toleranceSeconds?: number;
  /** The receiver's time in epoch milliseconds (`Clock.now()`, `Date.now()`). Default: the system clock. */
  readonly now?: number;
}

/** A signature that verified: when it was made (`t`, Unix seconds). */
export interface VerifiedWebhookSignature {
  readonly timestamp: number;
}

/** Request headers as a framework gives them: node's `req.headers`, a fetch `Headers`, a plain record. */
export type WebhookRequestHeaders =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What `verifyStandardWebhookSignature` checks. */
export interface VerifyStandardWebhookSignatureOptions {
  /** The raw body as received, as for `verifyWebhookSignature`. */
  readonly payload: WebhookPayload;
  /** The request's headers: `webhook-id`, `webhook-timestamp` and `webhook-signature` are read (any case). */
  readonly headers: WebhookRequestHeaders;
  /** The endpoint's `whsec_<base64>` secret, or several while one is rotated. */
  readonly secrets: string | readonly string[];
  /** How far the timestamp may be from `now`, either way, in seconds. Default 300. */
  readonly toleranceSeconds?: number;
  /** The receiver's time in epoch milliseconds. Default: the system clock. */
  readonly now?: number;
}

/** A Standard Webhooks request that verified: its message id (the event id) and time (Unix seconds). */
export interface VerifiedStandardWebhook {
  readonly id: string;
  readonly timestamp: number;
}

/** A signature header as read: its time, its `v1` signatures, and (Standard Webhooks) the message id. */
interface ParsedHeader {
  readonly id: string;
  readonly timestamp: number;
  readonly signatures: readonly Buffer[];
}

const TIMESTAMP = /^\d{1,15}$/;
const KEY = /^[A-Za-z0-9_-]+$/;
const MESSAGE_ID = /^[\x21-\x7e]{1,256}$/;

/** How each scheme writes one `v1` signature, and how its verifier says so when one is not. */
const V1 = {
  hex: { form: /^[0-9a-fA-F]{64}$/, words: 'A v1= of Paystate-Signature is not 64 hex digits' },
  base64: { form: /^[A-Za-z0-9+/]{43}=$/, words: 'A v1 signature of webhook-signature is not 32 bytes of base64' },
} as const;

const malformed = (message: string): WebhookVerificationError => ({ code: 'malformed_header', message });

/** The `v1` signatures of `header` decoded: one to `MAX_WEBHOOK_SECRETS`, each in its scheme's form. */
function decodeSignatures(
  values: readonly string[],
  header: string,
  encoding: keyof typeof V1,
): Result<readonly Buffer[], WebhookVerificationError> {
  const bad = values.find((value) => !V1[encoding].form.test(value));
  if (bad !== undefined) return err(malformed(V1[encoding].words));
  if (values.length > MAX_WEBHOOK_SECRETS) {
    const entries = encoding === 'hex' ? 'v1= signatures' : 'v1 signatures';
    return err(malformed(`${header} has more than ${MAX_WEBHOOK_SECRETS} ${entries}`));
  }
  if (values.length === 0) return err(malformed(`${header} has no v1${encoding === 'hex' ? '=' : ''} signature`));
  return ok(values.map((value) => Buffer.from(value, encoding)));
}

function headerText(header: VerifyWebhookSignatureOptions['header']): Result<string, WebhookVerificationError> {
  const values: readonly unknown[] = typeof header === 'string' ? [header] : Array.isArray(header) ? header : [];
  if (values.length === 0 || values.every((value) => typeof value === 'string' && value.trim() === '')) {
    return err({ code: 'missing_header', message: 'The request has no Paystate-Signature header' });
  }
  const [only] = values;
  if (values.length > 1) return err(malformed('Paystate-Signature was sent more than once'));
  if (typeof only !== 'string') return err(malformed('Paystate-Signature is not text'));
  return ok(only);
}

function parseHeader(text: string): Result<ParsedHeader, WebhookVerificationError> {
  if (text.length > MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH) {
    return err(malformed(`Paystate-Signature is longer than ${MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH} characters`));
  }
  let timestamp: number | undefined;
  const values: string[] = [];
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    const key = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (at < 0 || !KEY.test(key) || value === '') {
      return err(malformed('Paystate-Signature needs comma-separated key=value entries'));
    }
    if (key === 't') {
      if (timestamp !== undefined) return err(malformed('Paystate-Signature has more than one t='));
      if (!TIMESTAMP.test(value)) return err(malformed('The t= of Paystate-Signature is not whole Unix seconds'));
      timestamp = Number(value);
    } else if (key === 'v1') values.push(value);
    // Other schemes (a later `v2=`) are for other verifiers: skipped.
  }
  if (timestamp === undefined) return err(malformed('Paystate-Signature has no t='));
  const time = timestamp;
  return decodeSignatures(values, 'Paystate-Signature', 'hex').map((signatures) => ({
    id: '',
    timestamp: time,
    signatures,
  }));
}

function headerValue(headers: WebhookRequestHeaders, name: string): unknown {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Readonly<Record<string, unknown>>;
  const key = Object.keys(record).find((given) => given.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

function parseStandardHeaders(headers: WebhookRequestHeaders): Result<ParsedHeader, WebhookVerificationError> {
  const values: string[] = [];
  for (const name of [
    STANDARD_WEBHOOK_ID_HEADER,
    STANDARD_WEBHOOK_TIMESTAMP_HEADER,
    STANDARD_WEBHOOK_SIGNATURE_HEADER,
  ]) {
    const value = headerValue(headers, name);
    if (value === undefined || value === null || value === '') {
      return err({ code: 'missing_header', message: `The request has no ${name} header` });
    }
    if (typeof value !== 'string') return err(malformed(`${name} was sent more than once, or is not text`));
    if (value.length > MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH) {
      return err(malformed(`${name} is longer than ${MAX_WEBHOOK_SIGNATURE_HEADER_LENGTH} characters`));
    }
    values.push(value.trim());
  }
  const [id = '', time = '', signature = ''] = values;
  if (!MESSAGE_ID.test(id)) return err(malformed('webhook-id is not 1 to 256 printable characters'));
  if (!TIMESTAMP.test(time)) return err(malformed('webhook-timestamp is not whole Unix seconds'));
  const v1: string[] = [];
  for (const entry of signature.split(' ').filter((part) => part !== '')) {
    const comma = entry.indexOf(',');
    if (comma < 1) return err(malformed('webhook-signature needs space-separated <version>,<signature> entries'));
    if (entry.slice(0, comma) === 'v1') v1.push(entry.slice(comma + 1)); // another scheme (v1a): for other verifiers
  }
  const timestamp = Number(time);
  return decodeSignatures(v1, 'webhook-signature', 'base64').map((signatures) => ({ id, timestamp, signatures }));
}

/**
 * The signatures `parsed` holds checked against those `sign` makes of the raw payload with its time, then
 * that time against the window: what both schemes do once their headers are read. Never throws for them;
 * a RangeError for a bad `toleranceSeconds` or `now`, a TypeError for a payload that is not the raw body.
 */
function verifyParsed(
  options: Pick<VerifyWebhookSignatureOptions, 'payload' | 'toleranceSeconds' | 'now'>,
  header: string,
  parsed: Result<ParsedHeader, WebhookVerificationError>,
  sign: (payload: string | Uint8Array, header: ParsedHeader) => readonly Buffer[],
): Result<ParsedHeader, WebhookVerificationError> {
  const payload = payloadData(options.payload);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(`toleranceSeconds needs a finite number of seconds from 0 (got ${String(tolerance)})`);
  }
  const now: unknown = options.now ?? systemClock.now();
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new RangeError(`now needs epoch milliseconds (got ${String(now)})`);
  }
  return parsed.andThen((given): Result<ParsedHeader, WebhookVerificationError> => {
    let matched = false;
    for (const signature of sign(payload, given)) {
      // Every pair is compared, matched or not: the time taken tells nothing of where they differ.
      for (const each of given.signatures) if (timingSafeEqual(each, signature)) matched = true;
    }
    if (!matched) {
      const message = `No v1 signature of ${header} matches the body with the secrets given`;
      return err({ code: 'no_matching_signature', message });
    }
    const { timestamp } = given;
    if (Math.abs(Math.floor(now / 1000) - timestamp) > tolerance) {
      const message = `The signature was made at ${timestamp}, more than ${tolerance} s from now (${Math.floor(now / 1000)})`;
      return err({ code: 'timestamp_out_of_tolerance', message, timestamp });
    }
    return ok(given);
  });
}

/**
 * Verifies that paystate signed this body with one of `secrets` within `toleranceSeconds` of `now`, signature
 * before time; answers its time or a `WebhookVerificationError`, never throwing for what a request holds.
 * A RangeError or TypeError for a bad set-up or a payload that is not the raw body.
 */
export function verifyWebhookSignature(
  options: VerifyWebhookSignatureOptions,
): Result<VerifiedWebhookSignature, WebhookVerificationError> {
  const secrets = webhookSecrets(options.secrets, 'webhook verification secrets');
  const parsed = headerText(options.header).andThen(parseHeader);
  return verifyParsed(options, 'Paystate-Signature', parsed, (payload, { timestamp }) =>
    secrets.map((secret) => webhookSignature(secret, `${timestamp}.`, payload)),
  ).map(({ timestamp }) => ({ timestamp }));
}

/**
 * Verifies a `standard-webhooks` request as `verifyWebhookSignature` does the default scheme; never throws
 * for what a request holds, but a RangeError or TypeError for a bad set-up or a payload that is not the raw body.
 */
export function verifyStandardWebhookSignature(
  options: VerifyStandardWebhookSignatureOptions,
): Result<VerifiedStandardWebhook, WebhookVerificationError> {
  const keys = checkStandardWebhookSecrets(options.secrets);
  if (keys.isErr()) throw new RangeError(`standard webhook verification secrets: ${keys.error}`);
  const parsed = parseStandardHeaders(options.headers);
  return verifyParsed(options, 'webhook-signature', parsed, (payload, { id, timestamp }) =>
    keys.value.map((key) => webhookSignature(key, `${id}.${timestamp}.`, payload)),
  ).map(({ id, timestamp }) => ({ id, timestamp }));
}
