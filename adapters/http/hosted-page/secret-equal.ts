import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Compares two secrets in constant time, whatever their lengths (both are hashed first). */
export function secretEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
