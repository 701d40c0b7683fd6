/**
 * `text` fit for a log line: any run of three or more digits (a CVC, a card number, grouped or
 * not) becomes `[digits]`, and at most 200 characters are kept.
 */
export function maskDigits(text: string): string {
  return text.replace(/\d(?:[ ./-]?\d){2,}/g, '[digits]').slice(0, 200);
}
