import { z } from 'zod';
import { containsCardNumber } from '../domain/card-number.js';
import { IP_ADDRESS_JSON_SCHEMA, isIpAddress } from './ip-address.js';
import { stringRules } from './string-rules.js';
import { atMostCharacters, isWellFormedText, NO_CARD_NUMBER, NOT_UNICODE } from './text.js';

/** Colour depths EMV 3DS accepts, plus 30, which browsers report and which is sent on as 24. */
export const COLOR_DEPTHS = Object.freeze([1, 4, 8, 15, 16, 24, 30, 32, 48] as const);

const HEADER_MAX = 2048;

// RFC 5646 language tag (the `language` rule), simplified: language(-extlang)? (-script)? (-region)? (-variant)* (-extension)* (-privateuse)?,
// or a private-use tag alone. Case-insensitive.
export const BCP47 =
  /^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[a-wyz\d](?:-[a-z\d]{2,8})+)*(?:-x(?:-[a-z\d]{1,8})+)?|x(?:-[a-z\d]{1,8})+)$/i;

// Header values hold no control characters but horizontal tab (RFC 9110 field-value).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;

/**
 * A header value with a card number in it, with every digit (of any script) replaced by `*`: a
 * header is the browser's, not something the cardholder or the merchant typed, so it is not
 * refused (a payment must not fail on a browser's odd user agent); but it is stored and sent to
 * 3DS, and a card number is never stored.
 */
export function withoutCardNumber(value: string): string {
  return containsCardNumber(value) ? value.replace(/\p{N}/gu, '*') : value;
}

const HEADER_FIELDS = ['user_agent', 'accept', 'accept_encoding', 'accept_language'] as const;

/** The browser data with {@link withoutCardNumber} applied to its header fields (itself when none holds one). */
function headersWithoutCardNumber<T extends Record<(typeof HEADER_FIELDS)[number], string>>(user: T): T {
  let masked: T | undefined;
  for (const field of HEADER_FIELDS) {
    const kept = withoutCardNumber(user[field]);
    if (kept !== user[field]) masked = { ...(masked ?? user), [field]: kept };
  }
  return masked ?? user;
}

const header = (min: 0 | 1) =>
  z
    .string()
    .check(
      stringRules([
        { min, message: 'Must not be empty' },
        atMostCharacters(HEADER_MAX),
        { pattern: HEADER_VALUE, message: 'Must not contain control characters' },
        { refine: isWellFormedText, message: NOT_UNICODE },
      ]),
    );

const screenSize = z
  .int('Must be an integer from 1 to 999999')
  .min(1, 'Must be an integer from 1 to 999999')
  .max(999_999, 'Must be an integer from 1 to 999999');

/**
 * `user`: the cardholder's browser data for EMV 3DS (docs/http-api.md, Create a payment). Every field is
 * required. `user_agent` and `accept` must not be empty (EMV 3DS requires them);
 * `accept_encoding` and `accept_language` may be empty strings (a browser may not send them).
 */
export const browserDataSchema = z
  .strictObject({
    ip_address: z.string().check(
      stringRules([
        { max: 45, message: 'Must be an IPv4 or IPv6 address' },
        { refine: isIpAddress, message: 'Must be an IPv4 or IPv6 address', jsonSchema: IP_ADDRESS_JSON_SCHEMA },
      ]),
    ),
    user_agent: header(1),
    accept: header(1),
    accept_encoding: header(0),
    accept_language: header(0),
    language: z.string().check(
      stringRules([
        { max: 35, message: 'Must be a BCP 47 language tag of at most 35 characters' },
        { pattern: BCP47, message: 'Must be a BCP 47 language tag such as `en-US`' },
        // Private-use subtags may hold digits: "x-42424242-42424242" is a card number, and is stored.
        NO_CARD_NUMBER,
      ]),
    ),
    screen_width: screenSize,
    screen_height: screenSize,
    java_enabled: z.boolean(),
    javascript_enabled: z.boolean(),
    color_depth: z.literal(COLOR_DEPTHS, `Must be one of ${COLOR_DEPTHS.join(', ')}`),
    timezone_offset: z
      .int('Must be an integer number of minutes from -840 to 720')
      .min(-840, 'Must be an integer number of minutes from -840 to 720')
      .max(720, 'Must be an integer number of minutes from -840 to 720'),
  })
  // One pass over the four headers of the object rather than a check per field.
  .overwrite(headersWithoutCardNumber);
