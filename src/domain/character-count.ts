/**
 * The number of characters of `text`, counted as code points: a character outside the Basic
 * Multilingual Plane (an emoji) is one, though it takes two UTF-16 units. zod's `min` and `max`,
 * JSON Schema's `minLength` and `maxLength`, and Postgres count characters this way; a lone
 * surrogate counts as one.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count -= 1;
      i += 1;
    }
  }
  return count;
}
