import { err, ok, type Result } from 'neverthrow';
import { problem, type Problem } from './problem-details.js';

/** Deepest nesting of arrays and objects accepted in a body (the payment request needs 3). */
export const MAX_JSON_DEPTH = 32;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Deepest `[`/`{` nesting outside strings; stops counting past `max`. */
function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

const invalidJson = (detail: string): Problem => problem('invalid_json', detail);

/**
 * Parses a request body as UTF-8 JSON. The parser's own message is never passed on: it quotes
 * the input, which may hold card data.
 */
export function parseJsonBody(bytes: Uint8Array): Result<unknown, Problem> {
  if (bytes.byteLength === 0) return err(invalidJson('The request body is empty; send a JSON object'));
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return err(invalidJson('The request body is not valid UTF-8'));
  }
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return err(
      problem('validation_failed', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
        errors: [{ path: '', message: `Must not be nested deeper than ${MAX_JSON_DEPTH} levels` }],
      }),
    );
  }
  try {
    return ok(JSON.parse(text) as unknown);
  } catch {
    return err(invalidJson('The request body is not valid JSON'));
  }
}
