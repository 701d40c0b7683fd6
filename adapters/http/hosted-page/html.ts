/** Text made safe for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Markup that is already safe: `html` and `raw` make it; anything else is escaped when interpolated. */
export interface SafeHtml {
  readonly __html: string;
}

const isSafe = (value: unknown): value is SafeHtml =>
  typeof value === 'object' && value !== null && typeof (value as SafeHtml).__html === 'string';

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (isSafe(value)) return value.__html;
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value unless it is `SafeHtml` (from `html` or
 * `raw`); arrays are joined, and `null`, `undefined` and `false` render as nothing.
 */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return { __html: out };
}

/** Trusted markup, inserted as is. Never pass anything derived from a request. */
export function raw(markup: string): SafeHtml {
  return { __html: markup };
}
