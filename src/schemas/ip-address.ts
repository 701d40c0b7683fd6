import type { JsonSchemaKeywords } from './json-schema-keywords.js';

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));

/** Dotted-quad IPv4 without leading zeros (`192.0.2.1`). */
function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

/** IPv6 in RFC 4291 text form, with `::` compression and an optional embedded IPv4 tail; no zone id. */
function isIpv6(value: string): boolean {
  if (value.length < 2 || value.length > 45) return false;
  const lastColon = value.lastIndexOf(':');
  if (lastColon === -1) return false;
  let text = value;
  const tail = value.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!IPV4.test(tail)) return false;
    text = `${value.slice(0, lastColon + 1)}0:0`; // the IPv4 tail stands for two groups
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 1) {
    const groups = groupsOf(text);
    return groups.length === 8 && groups.every((g) => HEX_GROUP.test(g));
  }
  const groups = [...groupsOf(halves[0] ?? ''), ...groupsOf(halves[1] ?? '')];
  return groups.length <= 7 && groups.every((g) => HEX_GROUP.test(g));
}

/**
 * {@link isIpAddress} in JSON Schema: the `ipv4` format (RFC 2673 dotted-quad) with the pattern
 * above, since some validators let leading zeros through (`010.0.0.1`), or the `ipv6` format
 * (RFC 4291 text form). `anyOf`, not `oneOf`: where formats are only annotations, both branches hold.
 */
export const IP_ADDRESS_JSON_SCHEMA: JsonSchemaKeywords = {
  anyOf: [{ format: 'ipv4', pattern: IPV4.source }, { format: 'ipv6' }],
};

/** IPv4 or IPv6 address in text form. */
export function isIpAddress(value: string): boolean {
  return isIpv4(value) || isIpv6(value);
}
