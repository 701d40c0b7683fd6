/**
 * The canonical text of parsed JSON (RFC 8785 style): members sorted by key, no whitespace, so
 * bodies that differ only in order or spacing read the same. Depth is bounded (`MAX_JSON_DEPTH`).
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
