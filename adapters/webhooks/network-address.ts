import { isIP } from 'node:net';

/**
 * Why an address is not one a webhook may reach: every kind of address that is not a public,
 * globally reachable unicast address.
 */
export type BlockedAddressRule =
  'unspecified' | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'shared' | 'multicast' | 'reserved';

/**
 * Each rule in words, as a refusal says it: never the address itself, nor its range (which would
 * repeat addresses such as `0.0.0.0` or `::1`). docs/webhooks.md lists the ranges.
 */
export const BLOCKED_ADDRESS_RULE_TEXT: Readonly<Record<BlockedAddressRule, string>> = Object.freeze({
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private network address (RFC 1918)',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  'unique-local': 'a unique-local IPv6 address',
  shared: 'a shared address (carrier-grade NAT)',
  multicast: 'a multicast address',
  reserved: 'a reserved or special-purpose address that is not globally reachable',
});

type Range = readonly [prefix: readonly number[], bits: number, rule: BlockedAddressRule];

/** IPv4 ranges that are not public unicast (IANA IPv4 Special-Purpose Address Registry), as octets. */
const IPV4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'], // "this network"
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2, 0], 24, 'reserved'], // documentation (TEST-NET-1)
  [[192, 88, 99, 0], 24, 'reserved'], // 6to4 relay anycast (deprecated)
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
  [[198, 51, 100, 0], 24, 'reserved'], // documentation (TEST-NET-2)
  [[203, 0, 113, 0], 24, 'reserved'], // documentation (TEST-NET-3)
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'], // reserved, and the broadcast address
];

/** IPv6 ranges, as 16-bit words. Anything outside 2000::/3 (global unicast) is refused as well. */
const IPV6_RANGES: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0xfc00], 7, 'unique-local'],
  [[0xfe80], 10, 'link-local'],
  [[0xff00], 8, 'multicast'],
  [[0x2001, 0], 23, 'reserved'], // IETF protocol assignments, Teredo (2001::/32) among them
  [[0x2001, 0x0db8], 32, 'reserved'], // documentation
  [[0x3fff], 20, 'reserved'], // documentation
];

/** IPv6 prefixes that carry an IPv4 address, and where: it is judged by the IPv4 rules. */
const EMBEDDING_IPV4: readonly (readonly [prefix: readonly number[], bits: number, firstWord: number])[] = [
  [[0, 0, 0, 0, 0, 0xffff], 96, 6], // IPv4-mapped, ::ffff:a.b.c.d
  [[0x64, 0xff9b, 0, 0, 0, 0], 96, 6], // NAT64, 64:ff9b::a.b.c.d
  [[0x2002], 16, 1], // 6to4, 2002:aabb:ccdd::
];

/** Whether the first `bits` bits of `units` (each `width` bits wide) are those of `prefix`. */
function inRange(units: readonly number[], prefix: readonly number[], bits: number, width: number): boolean {
  for (let at = 0, left = bits; left > 0; at++, left -= width) {
    const mask = left >= width ? 2 ** width - 1 : (2 ** width - 1) ^ (2 ** (width - left) - 1);
    if (((units[at] ?? 0) & mask) !== ((prefix[at] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit words of an IPv6 address in any textual form (`::`, a dotted IPv4 tail, a zone). */
function ipv6Words(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  if (text.includes('.')) {
    const at = text.lastIndexOf(':');
    const octets = ipv4Octets(text.slice(at + 1));
    if (octets === undefined) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    text = `${text.slice(0, at + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const words = (part: string | undefined) =>
    part === undefined || part === ''
      ? []
      : part.split(':').map((word) => (/^[0-9a-f]{1,4}$/i.test(word) ? parseInt(word, 16) : -1));
  const head = words(halves[0]);
  const tail = words(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0) return undefined;
  const all = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return all.length === 8 && all.every((word) => word >= 0) ? all : undefined;
}

function ipv4Rule(octets: readonly number[]): BlockedAddressRule | null {
  for (const [prefix, bits, rule] of IPV4_RANGES) if (inRange(octets, prefix, bits, 8)) return rule;
  return null;
}

function ipv6Rule(words: readonly number[]): BlockedAddressRule | null {
  for (const [prefix, bits, first] of EMBEDDING_IPV4) {
    if (inRange(words, prefix, bits, 16)) {
      const high = words[first] ?? 0;
      const low = words[first + 1] ?? 0;
      return ipv4Rule([high >> 8, high & 0xff, low >> 8, low & 0xff]);
    }
  }
  for (const [prefix, bits, rule] of IPV6_RANGES) if (inRange(words, prefix, bits, 16)) return rule;
  // Only 2000::/3 is global unicast; everything else (IPv4-compatible ::a.b.c.d, 100::/64, …) is not.
  return inRange(words, [0x2000], 3, 16) ? null : 'reserved';
}

/**
 * The rule an IP address breaks, or `null` for a public unicast address a webhook may reach. An
 * address that is no IP address at all counts as `reserved`: only what can be judged is taken.
 */
export function blockedAddressRule(address: string): BlockedAddressRule | null {
  const version = isIP(address);
  if (version === 4) {
    const octets = ipv4Octets(address);
    return octets === undefined ? 'reserved' : ipv4Rule(octets);
  }
  if (version === 6) {
    const words = ipv6Words(address);
    return words === undefined ? 'reserved' : ipv6Rule(words);
  }
  return 'reserved';
}

/**
 * The rule a URL's host breaks by itself: an IP literal (already in plain form) by `blockedAddressRule`,
 * or `localhost` and names under it; `null` for another name, judged by the addresses it resolves to.
 */
export function blockedHostRule(hostname: string): BlockedAddressRule | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) !== 0) return blockedAddressRule(bare);
  const name = bare.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? 'loopback' : null;
}
