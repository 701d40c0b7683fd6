import type { WebhookLookup } from '../../../adapters/webhooks/index.js';

/** A public address (no test ever connects to it: the calls that resolve to it go to a fetch double). */
export const PUBLIC_ADDRESS = '93.184.215.14';

/** A resolver that answers `PUBLIC_ADDRESS` for every name, without DNS (the machine has no network). */
export const publicLookup: WebhookLookup = () => Promise.resolve([{ address: PUBLIC_ADDRESS, family: 4 }]);

/**
 * A resolver answering from `table` (a name's addresses, or a function of how many times it was
 * asked before), `ENOTFOUND` for a name not in it, and counting its calls per name.
 */
export function tableLookup(
  table: Readonly<Record<string, readonly string[] | ((asked: number) => readonly string[])>>,
) {
  const calls: string[] = [];
  const lookup: WebhookLookup = (hostname) => {
    const asked = calls.filter((name) => name === hostname).length;
    calls.push(hostname);
    const entry = table[hostname];
    const addresses = typeof entry === 'function' ? entry(asked) : entry;
    if (addresses === undefined) {
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    }
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { lookup, calls };
}
