import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedAddressRule, blockedHostRule } from '../../adapters/webhooks/network-address.js';
import { pinnedLookup, WebhookAddressRefusal } from '../../adapters/webhooks/webhook-lookup.js';
import { PUBLIC_ADDRESS, tableLookup } from './support/lookups.js';

describe('blockedAddressRule', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.53.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:A9FE:A9FE', 'link-local'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2002:c0a8:0101::', 'private'],
    ['::127.0.0.1', 'reserved'],
    ['::2', 'reserved'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['not an address', 'reserved'],
    ['', 'reserved'],
    ['127.0.0.1.', 'reserved'],
  ])('%s is %s', (address, rule) => {
    expect(blockedAddressRule(address)).toBe(rule);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    PUBLIC_ADDRESS,
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:200::1',
    '3ffe::1',
  ])('%s is public', (address) => {
    expect(blockedAddressRule(address)).toBeNull();
  });

  it('judges an IPv4 address inside IPv6 (mapped, NAT64, 6to4) as the IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const rule = blockedAddressRule(v4);
        expect(blockedAddressRule(`::ffff:${v4}`)).toBe(rule);
        expect(blockedAddressRule(`::ffff:${hex}`)).toBe(rule);
        expect(blockedAddressRule(`64:ff9b::${hex}`)).toBe(rule);
        expect(blockedAddressRule(`2002:${hex}::`)).toBe(rule);
      }),
    );
  });
});

describe('blockedHostRule', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['localhost', 'loopback'],
    ['localhost.', 'loopback'],
    ['LocalHost', 'loopback'],
    ['api.localhost', 'loopback'],
    ['10.0.0.1', 'private'],
    ['hooks.shop.example', null],
    ['localhost.shop.example', null],
    ['notlocalhost', null],
    ['8.8.8.8', null],
  ])('%s: %s', (host, rule) => {
    expect(blockedHostRule(host)).toBe(rule);
  });
});

/** Calls a lookup hook as node's `net` does, answering what it hands the callback. */
function callHook(
  hook: ReturnType<typeof pinnedLookup>,
  hostname: string,
  options: { all?: boolean; family?: number },
): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined }> {
  return new Promise((resolve) =>
    hook(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe('pinnedLookup: the addresses node connects to are the ones checked', () => {
  it('asks the resolver once, and hands node exactly the addresses it checked', async () => {
    const { lookup, calls } = tableLookup({
      // A rebinding name: public the first time it is asked, loopback after.
      'hooks.rebind.example': (n) => (n === 0 ? [PUBLIC_ADDRESS, '2606:4700:4700::1111'] : ['127.0.0.1']),
    });
    const hook = pinnedLookup(lookup, false);
    expect(await callHook(hook, 'hooks.rebind.example', { all: true })).toEqual({
      error: null,
      address: [
        { address: PUBLIC_ADDRESS, family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
      family: undefined,
    });
    expect(calls).toEqual(['hooks.rebind.example']);
    const again = await callHook(hook, 'hooks.rebind.example', { all: true });
    expect(again.error).toBeInstanceOf(WebhookAddressRefusal);
    expect((again.error as WebhookAddressRefusal).rule).toBe('loopback');
  });

  it('answers one address when node asks for one, of the family asked for', async () => {
    const { lookup } = tableLookup({ 'hooks.example': [PUBLIC_ADDRESS, '2606:4700:4700::1111'] });
    const hook = pinnedLookup(lookup, false);
    expect(await callHook(hook, 'hooks.example', {})).toMatchObject({
      error: null,
      address: PUBLIC_ADDRESS,
      family: 4,
    });
    expect(await callHook(hook, 'hooks.example', { family: 6 })).toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    const { lookup: v4only } = tableLookup({ 'hooks.example': [PUBLIC_ADDRESS] });
    const none = await callHook(pinnedLookup(v4only, false), 'hooks.example', { family: 6, all: true });
    expect(none.error?.code).toBe('ENOTFOUND');
  });

  it('skips answers that are no IP address, and fails with ENOTFOUND when nothing is left', async () => {
    const odd = pinnedLookup(
      () =>
        Promise.resolve([
          { address: 'not-an-ip', family: 4 },
          { address: PUBLIC_ADDRESS, family: 6 },
        ]),
      false,
    );
    expect(await callHook(odd, 'hooks.example', { all: true })).toMatchObject({
      address: [{ address: PUBLIC_ADDRESS, family: 4 }],
    });
    const empty = pinnedLookup(() => Promise.resolve([]), false);
    expect((await callHook(empty, 'hooks.example', { all: true })).error?.code).toBe('ENOTFOUND');
    const failing = pinnedLookup(() => Promise.reject(Object.assign(new Error('x'), { code: 'EAI_AGAIN' })), false);
    expect((await callHook(failing, 'hooks.example', {})).error?.code).toBe('EAI_AGAIN');
  });

  it('hands node private addresses with allowPrivateNetworks', async () => {
    const { lookup } = tableLookup({ 'db.internal': ['10.0.0.5'] });
    expect(await callHook(pinnedLookup(lookup, true), 'db.internal', { all: true })).toMatchObject({
      error: null,
      address: [{ address: '10.0.0.5', family: 4 }],
    });
  });
});
