/** `YYYY-MM-01T00:00:00.000Z` with a real month (01-12). */
export const EXPIRATION_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])-01T00:00:00\.000Z$/;

/**
 * True when `expiration` (already of the form `YYYY-MM-01T00:00:00.000Z`) names a month before
 * the month of `now` (epoch ms, UTC). A card is valid through the end of its expiry month.
 */
export function isExpirationBefore(expiration: string, now: number): boolean {
  const match = EXPIRATION_PATTERN.exec(expiration);
  if (match === null) return false;
  const month = Number(match[1]) * 12 + Number(match[2]) - 1;
  const today = new Date(now);
  return month < today.getUTCFullYear() * 12 + today.getUTCMonth();
}
