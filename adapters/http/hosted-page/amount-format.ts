import { currencyExponent } from '../../../src/domain/currency.js';

/**
 * An amount in minor units for people (`formatAmount(1999, 'EUR')` is `€19.99`): decimals from the
 * ISO 4217 table (not CLDR's), symbol and separators from `Intl`, no floating point.
 */
export function formatAmount(amount: number, currency: string, locale = 'en'): string {
  const exponent = currencyExponent(currency) ?? 2;
  const digits = String(Math.trunc(Math.abs(amount))).padStart(exponent + 1, '0');
  const units = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const decimal = `${amount < 0 ? '-' : ''}${units}${exponent > 0 ? `.${fraction}` : ''}` as `${number}`;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    }).format(decimal);
  } catch {
    // A code or locale this runtime's ICU does not know.
    return `${currency} ${decimal}`;
  }
}
