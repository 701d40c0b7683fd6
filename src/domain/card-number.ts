import type { CardScheme } from './card.js';

/** One BIN range of a scheme: the first `digits` digits of the number lie in `from..to`. */
interface PrefixRule {
  readonly scheme: CardScheme;
  readonly digits: number;
  readonly from: number;
  readonly to: number;
}

const range = (scheme: CardScheme, from: string, to: string = from): PrefixRule => ({
  scheme,
  digits: from.length,
  from: Number(from),
  to: Number(to),
});

/** Prefix ranges (cards-and-3ds.md), longest first so that the longest matching prefix wins. */
const PREFIX_RULES: readonly PrefixRule[] = [
  range('visa', '4'),
  range('mastercard', '51', '55'),
  range('mastercard', '2221', '2720'),
  range('amex', '34'),
  range('amex', '37'),
  range('discover', '6011'),
  range('discover', '644', '649'),
  range('discover', '65'),
  range('diners', '300', '305'),
  range('diners', '36'),
  range('diners', '38', '39'),
  range('jcb', '3528', '3589'),
  range('unionpay', '62'),
  range('maestro', '50'),
  range('maestro', '56', '59'),
  range('maestro', '63'),
  range('maestro', '67'),
].sort((a, b) => b.digits - a.digits);

const lengths = (from: number, to: number): ReadonlySet<number> =>
  new Set(Array.from({ length: to - from + 1 }, (_, i) => from + i));

/** Number lengths each scheme issues. */
const SCHEME_LENGTHS: Readonly<Record<CardScheme, ReadonlySet<number>>> = {
  visa: new Set([13, 16, 19]),
  mastercard: new Set([16]),
  amex: new Set([15]),
  discover: lengths(16, 19),
  diners: lengths(14, 19),
  jcb: lengths(16, 19),
  unionpay: lengths(16, 19),
  maestro: lengths(12, 19),
};

const DIGITS = /^\d+$/;

/** The longest prefix any rule reads. */
const PREFIX_DIGITS = Math.max(...PREFIX_RULES.map((rule) => rule.digits));

/**
 * Luhn (mod 10) check: from the rightmost digit, double every second digit, subtract 9 from
 * results above 9, sum all; valid when the sum is a multiple of 10. False for anything that is
 * not a non-empty string of ASCII digits.
 */
export function luhnValid(digits: string): boolean {
  if (!DIGITS.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * The scheme of a card number by its prefix (the longest matching prefix wins), or null when
 * no prefix matches, the number is not all digits, or its length is not one the matching
 * scheme issues. Does not check Luhn.
 */
export function detectScheme(number: string): CardScheme | null {
  if (!DIGITS.test(number)) return null;
  // The first four digits as a number, read once; a rule of n digits divides it by 10^(4 - n).
  const head = number.length < PREFIX_DIGITS ? number.padEnd(PREFIX_DIGITS, '0') : number;
  let first = 0;
  for (let i = 0; i < PREFIX_DIGITS; i++) first = first * 10 + head.charCodeAt(i) - 48;
  for (const rule of PREFIX_RULES) {
    if (number.length < rule.digits) continue;
    const prefix = Math.floor(first / 10 ** (PREFIX_DIGITS - rule.digits));
    if (prefix >= rule.from && prefix <= rule.to) {
      return SCHEME_LENGTHS[rule.scheme].has(number.length) ? rule.scheme : null;
    }
  }
  return null;
}

/**
 * Whether `text` may hold `count` digits in one run of digit groups ({@link DIGIT_GROUPS}): a
 * cheap scan that counts digits up to an ASCII letter across any other characters, a superset of
 * the separators the pattern joins across. So when it says no, no run of the pattern has `count`
 * digits either; ids like UUIDs, whose letters break every run, are passed by without a regular
 * expression.
 */
export function hasDigitRun(text: string, count: number): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++run >= count) return true;
    } else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) {
      run = 0;
    }
  }
  return false;
}

/**
 * Runs of digit groups, each separated from the next by any run of characters that are neither
 * letters nor numbers: punctuation, symbols and spaces (Unicode P, S, Z), control characters and
 * combining marks (C, M), however many: "4242 4242", "4242–4242", "4242~4242", "4242@4242",
 * "4242⁄4242" (fraction slash), "4242⠀4242" (braille blank), six spaces, a line break. No list
 * of separators: a fixed one let these through (an outside security review). Letters end a run,
 * so ids and words do not join numbers; dates and phone numbers' "(0)" are taken out before (`asSeen`), and
 * the Luhn check and the scheme's prefix and length keep times and other numbers from passing for
 * card numbers.
 */
const DIGIT_GROUPS = /\d+(?:[^\p{L}\p{N}]+\d+)*/gu;
const GROUP_SEPARATOR = /\D+/;
/** Dates (25.06.2025, 6/25/25, 2025-06-25): their groups are never part of a card number. */
const DATES = /(?<!\d)(?:(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})|(\d{4})-(\d{2})-(\d{2}))(?!\d)/g;
/**
 * A phone number's country code and trunk prefix ("+49 (0)30 1234-5675"): the 0 is not dialled
 * from abroad, and read with it the digits may make a card number (4903012345675 is a valid visa
 * number). Taken out like a date.
 */
const PHONE_TRUNK = /(?<!\d)\+\d{1,3}\s?\(0\)/g;

/** Whether day and month (in either order) and year make a real date, so that no card number passes as one. */
function isDate(first: number, second: number, year: string): boolean {
  const dayMonth = first >= 1 && first <= 31 && second >= 1 && second <= 12;
  const monthDay = first >= 1 && first <= 12 && second >= 1 && second <= 31;
  const century = year.length === 2 || year.startsWith('19') || year.startsWith('20');
  return (dayMonth || monthDay) && century;
}

function dropDate(
  match: string,
  a: string | undefined,
  b: string | undefined,
  y: string | undefined,
  isoYear: string | undefined,
  isoMonth: string | undefined,
  isoDay: string | undefined,
): string {
  const real =
    isoYear !== undefined ? isDate(Number(isoDay), Number(isoMonth), isoYear) : isDate(Number(a), Number(b), y ?? '');
  return real ? 'x' : match;
}
const NON_ASCII = /\P{ASCII}/u;
// Invisible formatting characters (zero-width space, joiners, soft hyphen, direction marks).
const FORMAT_CHARACTERS = /\p{Cf}/gu;
const OTHER_DIGITS = /(?![0-9])\p{Nd}/gu;
const DIGIT = /\p{Nd}/u;
const SEPARATOR_CHARACTER = /[^\p{L}\p{N}\p{ASCII}]/gu;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** The ASCII digit of a decimal digit of another script: its place in its run of ten (٤ → 4). */
function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0) as number;
  let zero = code;
  while (code - zero < 64 && DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

/**
 * `text` with every separator outside ASCII that folding would turn into letters or numbers
 * (™ → TM, ℡ → TEL, ㋀ → 1月) made a space, so that it stays a separator. Each character once.
 */
function withSeparatorsKept(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(SEPARATOR_CHARACTER, (character) => {
    let kept = seen.get(character);
    if (kept === undefined) {
      kept = LETTER_OR_NUMBER.test(character.normalize('NFKC')) ? ' ' : character;
      seen.set(character, kept);
    }
    return kept;
  });
}

/**
 * The text as a reader sees it: compatibility forms folded (full-width digits become ASCII
 * digits, a no-break space a space; a symbol that would fold to letters, such as ™, becomes a
 * space instead), invisible formatting characters dropped, digits of other scripts read as ASCII
 * digits, so none of these hides a card number; and dates and phone numbers' "+49 (0)" taken out,
 * so that they do not make one. `ascii`: the text is all ASCII (nothing to fold).
 */
function asSeen(text: string, ascii: boolean): string {
  const folded = ascii
    ? text
    : withSeparatorsKept(text).normalize('NFKC').replace(FORMAT_CHARACTERS, '').replace(OTHER_DIGITS, asciiDigit);
  return folded.replace(DATES, dropDate).replace(PHONE_TRUNK, 'x');
}

/**
 * True when `text` holds a card number: 12 to 19 digits, whole or split into groups by any run of
 * characters that are neither letters nor numbers ({@link DIGIT_GROUPS}: "4242 4242 4242 4242",
 * "4242~4242…", "4242 / 4242…"), Luhn-valid and of a known scheme, as `creditcard.number` must be.
 * Full-width digits, digits of other scripts, no-break spaces and invisible characters do not hide
 * it, nor do groups next to it ("4242424242424242 123"); dates, times and phone numbers written
 * "+49 (0)30 …" do not make one. Free text (names, addresses, description, reference, redirect
 * URL) refuses such text, so that a card number typed into the wrong field is neither stored nor
 * shown. A run of more than 19 digits in one group (an id) is not a card number.
 */
export function containsCardNumber(text: string): boolean {
  // ASCII text only loses digits to `asSeen` (dates, phone prefixes), so a short run here is short there too.
  const ascii = !NON_ASCII.test(text);
  if (ascii && !hasDigitRun(text, 12)) return false;
  const seen = asSeen(text, ascii);
  if (!hasDigitRun(seen, 12)) return false;
  for (const run of seen.matchAll(DIGIT_GROUPS)) {
    const groups = run[0].split(GROUP_SEPARATOR);
    for (let first = 0; first < groups.length; first++) {
      let digits = '';
      for (let last = first; last < groups.length; last++) {
        digits += groups[last];
        if (digits.length > 19) break;
        if (digits.length >= 12 && luhnValid(digits) && detectScheme(digits) !== null) return true;
      }
    }
  }
  return false;
}

const PERCENT_ENCODED = /(?:%[0-9A-Fa-f]{2})+/g;
const PERCENT_ENCODED_ASCII = /%([0-7][0-9A-Fa-f])/g;

/** Each run of percent-encoded bytes decoded: as UTF-8, or byte by byte where the ASCII ones are not UTF-8 as a run. */
export function percentDecoded(url: string): string {
  return url.replace(PERCENT_ENCODED, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(PERCENT_ENCODED_ASCII, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/**
 * {@link containsCardNumber} for a URL: also true when the URL holds a card number once its
 * percent-encoding is read ("?pan=4242%204242%204242%204242", "4242%E2%80%934242…"); a plus sign,
 * a form's space in a query, separates groups as it is.
 */
export function urlContainsCardNumber(url: string): boolean {
  return containsCardNumber(url) || (url.includes('%') && containsCardNumber(percentDecoded(url)));
}

/** Number of digits of the card verification code: 4 for American Express (CID), else 3. */
export function cvcLength(scheme: CardScheme): 3 | 4 {
  return scheme === 'amex' ? 4 : 3;
}
