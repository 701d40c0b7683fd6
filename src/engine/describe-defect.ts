import { maskDigits } from '../domain/mask-digits.js';

/**
 * What a defect looks like in a log: the failure's kind and stack frames, with its message
 * reduced to what cannot carry card data (an adapter's error text may quote its request).
 */
export function describeDefect(error: unknown): string {
  if (!(error instanceof Error)) return `non-error defect (${typeof error})`;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  return [`${error.name}: ${maskDigits(error.message)}`, ...frames.slice(0, 8)].join('\n');
}
