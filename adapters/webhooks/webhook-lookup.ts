import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { BLOCKED_ADDRESS_RULE_TEXT, blockedAddressRule, type BlockedAddressRule } from './network-address.js';

/** One address a host name resolves to, as `dns.promises.lookup(name, { all: true })` answers. */
export interface WebhookLookupAddress {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/**
 * Resolves an endpoint's host name to its addresses: every one is checked, and the connection is
 * made to one of them (never to an address resolved again later). Default `systemLookup`, the
 * operating system's resolver (`dns.promises.lookup` with `all: true`).
 */
export type WebhookLookup = (hostname: string) => Promise<readonly WebhookLookupAddress[]>;

/** The operating system's resolver, every address of the name. */
export const systemLookup: WebhookLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * An endpoint the server-side request forgery guard refuses: its host is, or resolves to, an
 * address of `rule`. The message names the rule, never the host or the address.
 */
export class WebhookAddressRefusal extends Error {
  override readonly name = 'WebhookAddressRefusal';
  constructor(
    readonly rule: BlockedAddressRule,
    how: 'is' | 'resolves to',
  ) {
    super(
      `The webhook endpoint ${how === 'is' ? 'is' : 'has a host name that resolves to'} ${BLOCKED_ADDRESS_RULE_TEXT[rule]}, which webhooks may not reach (allowPrivateNetworks allows it)`,
    );
  }
}

const notFound = () => Object.assign(new Error('The host name resolved to no usable address'), { code: 'ENOTFOUND' });

/**
 * The addresses `hostname` resolves to with `lookup`, each a valid IP address, and, unless
 * `allowPrivateNetworks`, every one a public address: a name with any address the guard refuses is
 * refused as a whole (`WebhookAddressRefusal`). Rejects with `ENOTFOUND` for no address at all.
 */
export async function checkedAddresses(
  hostname: string,
  lookup: WebhookLookup,
  allowPrivateNetworks: boolean,
): Promise<readonly LookupAddress[]> {
  const answer = await lookup(hostname);
  const addresses: LookupAddress[] = [];
  for (const entry of Array.isArray(answer) ? (answer as readonly unknown[]) : []) {
    const address = (entry as Partial<WebhookLookupAddress> | null)?.address;
    const family = typeof address === 'string' ? isIP(address) : 0;
    if (family === 0) continue;
    if (!allowPrivateNetworks) {
      const rule = blockedAddressRule(address as string);
      if (rule !== null) throw new WebhookAddressRefusal(rule, 'resolves to');
    }
    addresses.push({ address: address as string, family });
  }
  if (addresses.length === 0) throw notFound();
  return addresses;
}

/**
 * A `lookup` for node's `http.request` that hands node exactly the addresses it checked, so the check and
 * the connection see the same answer (no DNS rebinding). IP literals are checked with the URL.
 */
export function pinnedLookup(lookup: WebhookLookup, allowPrivateNetworks: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    checkedAddresses(hostname, lookup, allowPrivateNetworks).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = family === undefined ? addresses : addresses.filter((entry) => entry.family === family);
        const [first] = usable;
        if (first === undefined) callback(notFound(), '', 0);
        else if (options.all === true)
          callback(
            null,
            usable.map((entry) => ({ ...entry })),
          );
        else callback(null, first.address, first.family);
      },
      (error: unknown) =>
        callback(error instanceof Error ? error : Object.assign(new Error('The host name did not resolve')), '', 0),
    );
  };
}
