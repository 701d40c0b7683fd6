import { err, ok, type Result } from 'neverthrow';
import { characterCount } from '../../../src/domain/character-count.js';
import { containsCardNumber, cvcLength, detectScheme, luhnValid } from '../../../src/domain/card-number.js';
import type { ValidationIssue } from '../../../src/errors/payment-error.js';
import { CARD_FIELD_LABELS, CARD_MESSAGES, type CardField } from './card-messages.js';

/** What the cardholder typed, as the form posts it. */
export interface CardFormInput {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
  readonly holder_name: string;
}

/** One message per field that is wrong. */
export type FieldErrors = Partial<Record<CardField, string>>;

/** `creditcard` as the engine takes it. */
export interface CreditCardBody {
  readonly number: string;
  readonly cvc: string;
  readonly expiration: string;
  readonly holder_name: string;
}

const MONTH_YEAR = /^(\d{1,2})\/(\d{2}|\d{4})$/;
const MMYY = /^(\d{2})(\d{2})$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The digits of a card number typed with spaces or dashes between groups. */
export function cardDigits(text: string): string {
  return text.replace(/[\s-]/g, '');
}

/** `MM/YY`, `MM / YY`, `MMYY` or `MM/YYYY` as month and four-digit year; null when it is none of these. */
export function parseExpiry(text: string): { readonly month: number; readonly year: number } | null {
  const compact = text.replace(/\s/g, '');
  const match = MONTH_YEAR.exec(compact) ?? MMYY.exec(compact);
  if (match === null) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** The API's form of an expiry month: `YYYY-MM-01T00:00:00.000Z`. */
function expirationOf(expiry: { readonly month: number; readonly year: number }): string {
  return `${String(expiry.year).padStart(4, '0')}-${String(expiry.month).padStart(2, '0')}-01T00:00:00.000Z`;
}

function numberError(digits: string): string | undefined {
  if (digits === '') return CARD_MESSAGES.numberRequired;
  if (!/^\d+$/.test(digits)) return CARD_MESSAGES.numberFormat;
  if (digits.length < 12 || digits.length > 19) return CARD_MESSAGES.numberLength;
  if (!luhnValid(digits)) return CARD_MESSAGES.numberLuhn;
  if (detectScheme(digits) === null) return CARD_MESSAGES.numberScheme;
  return undefined;
}

function expiryError(text: string, now: number): string | undefined {
  if (text.trim() === '') return CARD_MESSAGES.expiryRequired;
  const expiry = parseExpiry(text);
  if (expiry === null) return CARD_MESSAGES.expiryFormat;
  const today = new Date(now);
  const past = expiry.year * 12 + expiry.month - 1 < today.getUTCFullYear() * 12 + today.getUTCMonth();
  return past ? CARD_MESSAGES.expiryPast : undefined;
}

function cvcError(cvc: string, digits: string): string | undefined {
  if (cvc === '') return CARD_MESSAGES.cvcRequired;
  const scheme = detectScheme(digits);
  const expected = scheme === null ? null : cvcLength(scheme);
  if (expected === null) return /^\d{3,4}$/.test(cvc) ? undefined : CARD_MESSAGES.cvcLength3;
  if (!/^\d+$/.test(cvc) || cvc.length !== expected) {
    return expected === 4 ? CARD_MESSAGES.cvcLength4 : CARD_MESSAGES.cvcLength3;
  }
  return undefined;
}

function nameError(name: string): string | undefined {
  if (name.trim() === '') return CARD_MESSAGES.nameRequired;
  if (CONTROL.test(name)) return CARD_MESSAGES.nameCharacters;
  if (containsCardNumber(name)) return CARD_MESSAGES.nameCardNumber;
  const length = characterCount(name);
  if (length < 2 || length > 45) return CARD_MESSAGES.nameLength;
  return undefined;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Checks the card form as the page script does and converts it to the engine's `creditcard`, with
 * the page's own messages; `unreadable` fields (not UTF-8) are each wrong.
 */
export function validateCardForm(
  input: CardFormInput,
  now: number,
  unreadable: ReadonlySet<string> = NONE,
): Result<CreditCardBody, FieldErrors> {
  const digits = cardDigits(input.number);
  const cvc = input.cvc.trim();
  const name = input.holder_name.trim();
  const errors: FieldErrors = {};
  const number = unreadable.has('number') ? CARD_MESSAGES.numberFormat : numberError(digits);
  if (number !== undefined) errors.number = number;
  const expiry = unreadable.has('expiry') ? CARD_MESSAGES.expiryFormat : expiryError(input.expiry, now);
  if (expiry !== undefined) errors.expiry = expiry;
  // Something that is not digits, for the scheme's length message.
  const code = cvcError(unreadable.has('cvc') ? '-' : cvc, digits);
  if (code !== undefined) errors.cvc = code;
  const holder = unreadable.has('holder_name') ? CARD_MESSAGES.nameCharacters : nameError(name);
  if (holder !== undefined) errors.holder_name = holder;
  const parsed = parseExpiry(input.expiry);
  if (Object.keys(errors).length > 0 || parsed === null) return err(errors);
  return ok({ number: digits, cvc, expiration: expirationOf(parsed), holder_name: name });
}

/** Field errors for the engine's validation issues (the form's own checks make these rare). */
export function errorsFromIssues(issues: readonly ValidationIssue[]): { fields: FieldErrors; form?: string } {
  const fields: FieldErrors = {};
  let form: string | undefined;
  const byPath: Readonly<Record<string, CardField>> = {
    'creditcard.number': 'number',
    'creditcard.cvc': 'cvc',
    'creditcard.expiration': 'expiry',
    'creditcard.holder_name': 'holder_name',
  };
  for (const issue of issues) {
    const field = byPath[issue.path];
    if (field === undefined) {
      form = 'Your browser details could not be read. Please try again.';
    } else if (fields[field] === undefined) {
      fields[field] =
        field === 'expiry' && issue.message.includes('expired')
          ? CARD_MESSAGES.expiryPast
          : `Check the ${CARD_FIELD_LABELS[field].toLowerCase()}.`;
    }
  }
  return form === undefined ? { fields } : { fields, form };
}
