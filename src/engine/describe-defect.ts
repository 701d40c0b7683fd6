import { maskDigits } from '../domain/mask-digits.js';

/**
 * What a defect looks like in a log: the failure's kind and stack frames, with its message
 * reduced to what cannot carry card data (an adapter's error text may quote its request). Never
 * throws, whatever odd value was thrown (its handlers must not fail in turn).
 */
export function describeDefect(error: unknown): string {
  if (!(error instanceof Error)) return `non-error defect (${typeof error})`;
  try {
    const frames = String(error.stack ?? '')
      .split('\n')
      .filter((line) => line.trimStart().startsWith('at '));
    return [`${String(error.name)}: ${maskDigits(String(error.message))}`, ...frames.slice(0, 8)].join('\n');
  } catch {
    return 'a defect that could not be described';
  }
}
