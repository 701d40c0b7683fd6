/** The card form's fields, by their form names. */
export const CARD_FIELDS = ['number', 'expiry', 'cvc', 'holder_name'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** Labels of the fields, for error summaries. */
export const CARD_FIELD_LABELS: Readonly<Record<CardField, string>> = {
  number: 'Card number',
  expiry: 'Expiry date',
  cvc: 'Security code',
  holder_name: 'Name on card',
};

/**
 * What the cardholder reads when a field is wrong: the same texts on the server (no-JS form
 * post) and in the page script (inline validation), which receives them as JSON.
 */
export const CARD_MESSAGES = {
  numberRequired: 'Enter the card number.',
  numberFormat: 'A card number has only digits. Spaces are fine.',
  numberLength: 'This card number is too short or too long. Check it against your card.',
  numberLuhn: 'This card number is not valid. Check it for typing mistakes.',
  numberScheme: 'This type of card is not accepted here.',
  expiryRequired: 'Enter the expiry date.',
  expiryFormat: 'Enter the expiry date as MM/YY, the way it is printed on your card.',
  expiryPast: 'This card has expired. Use another card.',
  cvcRequired: 'Enter the security code.',
  cvcLength3: 'Enter the 3-digit security code from the back of your card.',
  cvcLength4: 'Enter the 4-digit security code from the front of your card.',
  nameRequired: 'Enter the name as it is printed on the card.',
  nameLength: 'The name on the card must be 2 to 45 characters.',
  nameCharacters: 'The name on the card contains characters that cannot be used.',
  nameCardNumber: 'Enter the name on the card here, not the card number.',
} as const;

/** Scheme names as the page shows them. */
export const SCHEME_LABELS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'Amex',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
};
