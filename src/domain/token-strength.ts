/*
 * How strong an API token is, estimated from the token alone. The credential stores keep SHA-256
 * digests of tokens and derive client ids from them, so a token that can be guessed can be found
 * from a digest or an id by trying: tokens must be too strong to guess.
 */

/** The least strength, in bits, a configured or provisioned API token must have. */
export const MIN_API_TOKEN_BITS = 128;

/** The character classes of a bearer token (`API_TOKEN_PATTERN`), with how many characters each has. */
const CLASSES: readonly (readonly [RegExp, number])[] = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[-._~+/]/, 6],
];

/** A token with fewer different characters counts log2 of their number per character. */
const FEW_CHARACTERS = 8;

/** A run of one character longer than this counts as this long. */
const LONGEST_RUN = 4;

/** The length of the shortest period of `text`, when it repeats at least twice; else its length. */
function repeatingLength(text: string): number {
  // The longest border (a prefix that is also a suffix) gives the shortest period (Knuth-Morris-Pratt).
  const border: number[] = [0];
  for (let index = 1, matched = 0; index < text.length; index += 1) {
    while (matched > 0 && text[index] !== text[matched]) matched = border[matched - 1] ?? 0;
    if (text[index] === text[matched]) matched += 1;
    border.push(matched);
  }
  const period = text.length - (border[text.length - 1] ?? 0);
  return period * 2 <= text.length ? period : text.length;
}

/**
 * A conservative estimate of a bearer token's strength in bits: its length times log2 of the size
 * of the character classes it uses (a-z, A-Z, 0-9, `-._~+/`; both cases of letters count as letters
 * and digits), where trailing `=` padding counts nothing, a run of one character counts at most 4, a token that repeats a shorter one counts that
 * one only, and a token of fewer than 8 different characters counts log2 of their number per
 * character. Meant for the characters of `API_TOKEN_PATTERN`; an empty token has 0 bits.
 */
export function tokenStrengthBits(token: string): number {
  const body = token
    .replace(/=+$/, '')
    .replace(/(.)\1{4,}/g, (_run: string, character: string) => character.repeat(LONGEST_RUN));
  if (body.length === 0) return 0;
  const distinct = new Set(body).size;
  const classes = CLASSES.reduce((sum, [pattern, size]) => sum + (pattern.test(body) ? size : 0), 0);
  // Letters of both cases count as letters and digits: 1 in 100 random base64url tokens of 22
  // characters has neither digit nor symbol, and must not count as weaker for it.
  const alphabet = /[a-z]/.test(body) && /[A-Z]/.test(body) ? Math.max(classes, 62) : classes;
  const perCharacter = Math.log2(distinct < FEW_CHARACTERS ? distinct : Math.max(alphabet, distinct));
  return repeatingLength(body) * perCharacter;
}

/** Whether a token is strong enough to configure or provision (`API_TOKEN_STRENGTH_RULE`). */
export function isStrongApiToken(token: string): boolean {
  return tokenStrengthBits(token) >= MIN_API_TOKEN_BITS;
}

/** `isStrongApiToken` in words, for error messages (which never repeat the token). */
export const API_TOKEN_STRENGTH_RULE =
  `at least ${MIN_API_TOKEN_BITS} bits strong by a conservative estimate (length times the bits per character ` +
  `of the character classes used; repeats and few different characters count less): use 32 random bytes, ` +
  `such as openssl rand -hex 32 or openssl rand -base64 32 make`;
