import { maskDigits } from '../domain/mask-digits.js';

/**
 * The stack frames of `stack`, without the header V8 puts first (`${name}: ${message}`): a
 * message of several lines may have lines that start with `at ` too ("…\nat 4242 4242…"), and
 * would pass for frames. Unless the stack starts with that header followed by a frame as V8
 * writes it (the message or name was changed once the stack had been read, or the stack was
 * written by hand), each frame line has its digits masked, since a line of the message could be
 * among them.
 */
function framesOf(stack: string, error: Error): string[] {
  const message = String(error.message);
  const header = message === '' ? String(error.name) : `${String(error.name)}: ${message}`;
  const known = stack.startsWith(`${header}\n    at `);
  const lines = (known ? stack.slice(header.length + 1) : stack).split('\n');
  const frames = lines.filter((line) => line.trimStart().startsWith('at '));
  return known ? frames : frames.map(maskDigits);
}

/**
 * What a defect looks like in a log: the failure's kind and stack frames, with its name and
 * message reduced to what cannot carry card data (an adapter's error text may quote its request).
 * Never throws, whatever odd value was thrown (its handlers must not fail in turn).
 */
export function describeDefect(error: unknown): string {
  if (!(error instanceof Error)) return `non-error defect (${typeof error})`;
  try {
    const frames = framesOf(String(error.stack ?? ''), error);
    return [errorHeadline(error), ...frames.slice(0, 8)].join('\n');
  } catch {
    return 'a defect that could not be described';
  }
}

/**
 * An error's kind and message for a log line, digits masked (`TypeError: bad [digits]`), without
 * its stack; for a thrown value that is not an `Error`, its type.
 */
export function errorHeadline(error: unknown): string {
  return error instanceof Error
    ? `${maskDigits(String(error.name))}: ${maskDigits(String(error.message))}`
    : typeof error;
}
