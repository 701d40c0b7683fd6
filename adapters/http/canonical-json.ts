/**
 * The canonical text of a parsed JSON value (RFC 8785 style): object members sorted by key (UTF-16
 * code units), no whitespace, numbers and strings as `JSON.stringify` writes them. Two bodies that
 * differ only in member order or whitespace have the same canonical text. The input is parsed
 * JSON of bounded depth (see `MAX_JSON_DEPTH`).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}
