import { containsCardNumber } from './card-number.js';

/**
 * `text` fit for a log line: any run of three or more digits (a CVC, a card number, grouped or
 * not) becomes `[digits]`, and at most 200 characters are kept.
 */
export function maskDigits(text: string): string {
  return text.replace(/\d(?:[ ./-]?\d){2,}/g, '[digits]').slice(0, 200);
}

/** `text` with the user and password of every URL in it (`postgres://user:secret@host`) left out. */
export function withoutUrlCredentials(text: string): string {
  return String(text).replace(/\/\/[^/\s@]*@/g, '//[redacted]@');
}

/**
 * An adapter's failure message fit for a log line when it may name a status or a port (`webhook
 * endpoint example.com answered 503`): as it is, but with the user and password of a URL left out
 * and at most 200 characters; digits are masked (`maskDigits`) only when the message holds a card
 * number.
 */
export function loggableMessage(text: string): string {
  const withoutSecrets = withoutUrlCredentials(text);
  return containsCardNumber(withoutSecrets) ? maskDigits(withoutSecrets) : withoutSecrets.slice(0, 200);
}
