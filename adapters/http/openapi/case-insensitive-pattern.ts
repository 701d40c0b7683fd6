const LOWER = /^[a-z]$/;
const UPPER = /^[A-Z]$/;

const isLetter = (c: string): boolean => LOWER.test(c) || UPPER.test(c);
const otherCase = (c: string): string => (LOWER.test(c) ? c.toUpperCase() : c.toLowerCase());

/** Length of the escape sequence starting at `source[i]` (a backslash). */
function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  if (next === undefined) throw new SyntaxError('A pattern must not end with a backslash');
  if (next === 'u' && source[i + 2] === '{') return source.indexOf('}', i) - i + 1;
  if (next === 'u') return 6;
  if (next === 'x') return 4;
  if (next === 'c') return 3;
  if (next === 'p' || next === 'P') return source.indexOf('}', i) - i + 1;
  if (next === 'k') return source.indexOf('>', i) - i + 1;
  return 2;
}

/** A character class (`[...]`, from `[` to its `]`) with the other case of every ASCII letter and letter range added. */
function expandClass(source: string, start: number): { text: string; end: number } {
  let i = start + 1;
  let text = '[';
  if (source[i] === '^') {
    text += '^';
    i++;
  }
  const extra: string[] = [];
  while (i < source.length && source[i] !== ']') {
    const c = source[i] as string;
    if (c === '\\') {
      const length = escapeLength(source, i);
      text += source.slice(i, i + length);
      i += length;
      continue;
    }
    if (source[i + 1] === '-' && source[i + 2] !== undefined && source[i + 2] !== ']') {
      const to = source[i + 2] as string;
      if (to === '\\') throw new SyntaxError('Ranges ending in an escape are not supported');
      const sameCaseLetters = (LOWER.test(c) && LOWER.test(to)) || (UPPER.test(c) && UPPER.test(to));
      const spansLetters = (c <= 'Z' && to >= 'A') || (c <= 'z' && to >= 'a');
      if (!sameCaseLetters && spansLetters) {
        throw new SyntaxError(`The range ${c}-${to} mixes letters and other characters`);
      }
      text += `${c}-${to}`;
      if (sameCaseLetters) extra.push(`${otherCase(c)}-${otherCase(to)}`);
      i += 3;
      continue;
    }
    text += c;
    if (isLetter(c)) extra.push(otherCase(c));
    i++;
  }
  if (source[i] !== ']') throw new SyntaxError('Unterminated character class');
  return { text: `${text}${extra.join('')}]`, end: i + 1 };
}

/**
 * An `i`-flag regex source rewritten to match without the flag (`[a-z]` → `[a-zA-Z]`), ASCII
 * letters only. @throws SyntaxError for what it cannot rewrite faithfully.
 */
export function caseInsensitivePattern(source: string): string {
  // eslint-disable-next-line no-control-regex -- any non-ASCII character is refused
  if (/[^\x00-\x7f]/.test(source)) throw new SyntaxError('Only ASCII patterns can be rewritten');
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\') {
      const length = escapeLength(source, i);
      out += source.slice(i, i + length);
      i += length;
    } else if (c === '[') {
      const expanded = expandClass(source, i);
      out += expanded.text;
      i = expanded.end;
    } else if (c === '(' && source[i + 1] === '?' && source[i + 2] === '<' && /[A-Za-z_$]/.test(source[i + 3] ?? '')) {
      // A named group: its name stays as written.
      const end = source.indexOf('>', i);
      out += source.slice(i, end + 1);
      i = end + 1;
    } else {
      out += isLetter(c) ? `[${c}${otherCase(c)}]` : c;
      i++;
    }
  }
  return out;
}
