import { CARD_MESSAGES } from './card-messages.js';

/**
 * The card rules of `card-form.ts` (and of `src/domain/card-number.ts`) for the browser: plain
 * ES2018 function declarations (Unicode property escapes), no DOM. The page script embeds it; the tests run it in a VM
 * and compare it with the server's rules.
 */
export const CARD_RULES_SCRIPT = String.raw`
var MESSAGES = ${JSON.stringify(CARD_MESSAGES)};
var PREFIXES = [
  ['mastercard', 4, 2221, 2720], ['discover', 4, 6011, 6011], ['jcb', 4, 3528, 3589],
  ['discover', 3, 644, 649], ['diners', 3, 300, 305],
  ['mastercard', 2, 51, 55], ['amex', 2, 34, 34], ['amex', 2, 37, 37], ['discover', 2, 65, 65],
  ['diners', 2, 36, 36], ['diners', 2, 38, 39], ['unionpay', 2, 62, 62], ['maestro', 2, 50, 50],
  ['maestro', 2, 56, 59], ['maestro', 2, 63, 63], ['maestro', 2, 67, 67],
  ['visa', 1, 4, 4]
];
var LENGTHS = {
  visa: [13, 16, 19], mastercard: [16], amex: [15], discover: [16, 17, 18, 19],
  diners: [14, 15, 16, 17, 18, 19], jcb: [16, 17, 18, 19], unionpay: [16, 17, 18, 19],
  maestro: [12, 13, 14, 15, 16, 17, 18, 19]
};

function cardDigits(text) { return text.replace(/[\s-]/g, ''); }

function luhnValid(digits) {
  if (!/^\d+$/.test(digits)) return false;
  var sum = 0, double = false;
  for (var i = digits.length - 1; i >= 0; i--) {
    var d = digits.charCodeAt(i) - 48;
    if (double) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The scheme the first digits point to, whatever the length (for showing it while typing). */
function schemeByPrefix(digits) {
  if (!/^\d+$/.test(digits)) return null;
  for (var i = 0; i < PREFIXES.length; i++) {
    var rule = PREFIXES[i];
    if (digits.length < rule[1]) continue;
    var prefix = Number(digits.slice(0, rule[1]));
    if (prefix >= rule[2] && prefix <= rule[3]) return rule[0];
  }
  return null;
}

function detectScheme(digits) {
  var scheme = schemeByPrefix(digits);
  return scheme !== null && LENGTHS[scheme].indexOf(digits.length) !== -1 ? scheme : null;
}

function cvcLength(scheme) { return scheme === 'amex' ? 4 : 3; }

function parseExpiry(text) {
  var compact = text.replace(/\s/g, '');
  var match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(compact) || /^(\d{2})(\d{2})$/.exec(compact);
  if (match === null) return null;
  var month = Number(match[1]);
  var year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month: month, year: year } : null;
}

function numberError(text) {
  var digits = cardDigits(text);
  if (digits === '') return MESSAGES.numberRequired;
  if (!/^\d+$/.test(digits)) return MESSAGES.numberFormat;
  if (digits.length < 12 || digits.length > 19) return MESSAGES.numberLength;
  if (!luhnValid(digits)) return MESSAGES.numberLuhn;
  if (detectScheme(digits) === null) return MESSAGES.numberScheme;
  return '';
}

function expiryError(text, now) {
  if (text.trim() === '') return MESSAGES.expiryRequired;
  var expiry = parseExpiry(text);
  if (expiry === null) return MESSAGES.expiryFormat;
  var today = new Date(now);
  var past = expiry.year * 12 + expiry.month - 1 < today.getUTCFullYear() * 12 + today.getUTCMonth();
  return past ? MESSAGES.expiryPast : '';
}

function cvcError(text, numberText) {
  var cvc = text.trim();
  if (cvc === '') return MESSAGES.cvcRequired;
  var scheme = detectScheme(cardDigits(numberText));
  if (scheme === null) return /^\d{3,4}$/.test(cvc) ? '' : MESSAGES.cvcLength3;
  var expected = cvcLength(scheme);
  if (!/^\d+$/.test(cvc) || cvc.length !== expected) return expected === 4 ? MESSAGES.cvcLength4 : MESSAGES.cvcLength3;
  return '';
}

function asciiDigit(digit) {
  var code = digit.codePointAt(0), zero = code;
  while (code - zero < 64 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

function isDate(first, second, year) {
  var dayMonth = first >= 1 && first <= 31 && second >= 1 && second <= 12;
  var monthDay = first >= 1 && first <= 12 && second >= 1 && second <= 31;
  var century = year.length === 2 || year.indexOf('19') === 0 || year.indexOf('20') === 0;
  return (dayMonth || monthDay) && century;
}

function dropDate(match, a, b, y, isoYear, isoMonth, isoDay) {
  var real = isoYear !== undefined ? isDate(Number(isoDay), Number(isoMonth), isoYear) : isDate(Number(a), Number(b), y || '');
  return real ? 'x' : match;
}

function keptSeparator(character) {
  return /[\p{L}\p{N}]/u.test(character.normalize('NFKC')) ? ' ' : character;
}

function containsCardNumber(text) {
  var folded = /\P{ASCII}/u.test(text)
    ? text.replace(/[^\p{L}\p{N}\p{ASCII}]/gu, keptSeparator).normalize('NFKC').replace(/\p{Cf}/gu, '').replace(/(?![0-9])\p{Nd}/gu, asciiDigit)
    : text;
  var seen = folded
    .replace(/(?<!\d)(?:(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})|(\d{4})-(\d{2})-(\d{2}))(?!\d)/g, dropDate)
    .replace(/(?<!\d)\+\d{1,3}\s?\(0\)/g, 'x');
  var runs = seen.match(/\d+(?:[^\p{L}\p{N}]+\d+)*/gu) || [];
  for (var r = 0; r < runs.length; r++) {
    var groups = runs[r].split(/\D+/);
    for (var first = 0; first < groups.length; first++) {
      var digits = '';
      for (var last = first; last < groups.length; last++) {
        digits += groups[last];
        if (digits.length > 19) break;
        if (digits.length >= 12 && luhnValid(digits) && detectScheme(digits) !== null) return true;
      }
    }
  }
  return false;
}

function nameError(text) {
  var name = text.trim();
  if (name === '') return MESSAGES.nameRequired;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return MESSAGES.nameCharacters;
  if (containsCardNumber(name)) return MESSAGES.nameCardNumber;
  // Characters, as the engine counts them: a surrogate pair (an emoji) is one.
  var length = name.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
  if (length < 2 || length > 45) return MESSAGES.nameLength;
  return '';
}
`;
