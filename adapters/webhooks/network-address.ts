import { BlockList, isIP } from 'node:net';

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

type Range = readonly [network: string, bits: number, rule: BlockedAddressRule];

/** IPv4 ranges that are not public unicast (IANA IPv4 Special-Purpose Address Registry). */
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation (TEST-NET-1)
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, 'reserved'], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // reserved, and the broadcast address
];

/** IPv6 ranges. Anything outside 2000::/3 (global unicast) is refused as well. */
const IPV6_RANGES: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  ['2001::', 23, 'reserved'], // IETF protocol assignments, Teredo (2001::/32) among them
  ['2001:db8::', 32, 'reserved'], // documentation
  ['3fff::', 20, 'reserved'], // documentation
];

/** The IPv4 range under each IPv6 prefix that carries an IPv4 address: mapped, NAT64 and 6to4. */
const EMBEDDED_IPV4: readonly ((range: Range) => Range)[] = [
  ([network, bits, rule]) => [`::ffff:${network}`, 96 + bits, rule],
  ([network, bits, rule]) => [`64:ff9b::${network}`, 96 + bits, rule],
  ([network, bits, rule]) => [`2002:${hexWords(network)}::`, 16 + bits, rule],
];

/** `a.b.c.d` as the two IPv6 words `aabb:ccdd`. */
function hexWords(ipv4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** One `node:net` BlockList per rule, IPv4 ranges also under the IPv6 prefixes that carry them. */
const BLOCKED = new Map<BlockedAddressRule, BlockList>();
for (const [network, bits, rule] of [
  ...IPV4_RANGES,
  ...IPV6_RANGES,
  ...IPV4_RANGES.flatMap((range) => EMBEDDED_IPV4.map((embed) => embed(range))),
]) {
  const list = BLOCKED.get(rule) ?? new BlockList();
  list.addSubnet(network, bits, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  BLOCKED.set(rule, list);
}

/** Global unicast (2000::/3), and the mapped and NAT64 prefixes whose IPv4 address was judged above. */
const JUDGED_IPV6 = new BlockList();
JUDGED_IPV6.addSubnet('2000::', 3, 'ipv6');
JUDGED_IPV6.addSubnet('::ffff:0:0', 96, 'ipv6');
JUDGED_IPV6.addSubnet('64:ff9b::', 96, 'ipv6');

/**
 * The rule an IP address breaks, or `null` for a public unicast address a webhook may reach. An
 * address that is no IP address at all counts as `reserved`: only what can be judged is taken.
 */
export function blockedAddressRule(address: string): BlockedAddressRule | null {
  const version = isIP(address);
  if (version === 0) return 'reserved';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  for (const [rule, list] of BLOCKED) if (list.check(address, family)) return rule;
  return family === 'ipv4' || JUDGED_IPV6.check(address, family) ? null : 'reserved';
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
