import { currencyExponent } from '../../../src/domain/currency.js';

/**
 * An amount in minor units, formatted for people: `formatAmount(1999, 'EUR')` is `€19.99`,
 * `formatAmount(500, 'JPY')` is `¥500`, `formatAmount(1500, 'KWD')` is `KWD 1.500`. The number of
 * decimals is the ISO 4217 exponent from paystate's static table (`Intl` follows CLDR, which
 * differs for about 16 currencies); `Intl.NumberFormat` only supplies the symbol, grouping and
 * decimal separator of `locale`. The amount is formatted from an exact decimal string, so no
 * floating-point rounding can change it.
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
