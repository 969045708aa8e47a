import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  guardedLookup,
  isPublicAddress,
  RefusedAddressError,
  webhookTargetPolicyOf,
  type ResolveAll,
} from './address.ts';
import { loadConfig } from '../../config.ts';

describe('public address classification', () => {
  it.each([
    // IPv4, each range at its edges
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.0',
    '10.0.0.5',
    '10.255.255.255',
    '100.64.0.0',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.0.1',
    '169.254.169.254',
    '172.16.0.0',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.0.1',
    '192.168.255.255',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
    'fec0::1',
    'ff02::1',
    '100::1',
    '2001:db8::1',
    '2001::1',
    '3fff::1',
    '64:ff9b:1::a00:5',
    '::a00:5', // IPv4-compatible (deprecated)
    // IPv4-mapped and embedded IPv4 of private addresses
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.5',
    '::ffff:a00:5',
    '::FFFF:A9FE:A9FE', // 169.254.169.254
    '0:0:0:0:0:ffff:c0a8:101',
    '64:ff9b::10.0.0.5',
    '64:ff9b::a9fe:a9fe',
    '2002:a00:5::1', // 6to4 of 10.0.0.5
    '2002:7f00:1::',
    // not an IP address at all
    '',
    'localhost',
    '10.0.0',
    '1.2.3.4.5',
    '::ffff:300.1.1.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255', // just below 10/8
    '11.0.0.0', // just above
    '100.63.255.255', // just below 100.64/10
    '100.128.0.0', // just above
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.0', // just above
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255', // last before multicast
    '93.184.215.14',
    '2606:4700:4700::1111',
    '2a00:1450:4003:80f::200e',
    '2001:4860:4860::8888',
    '2001:db9::1', // just above documentation
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1', // 6to4 of 8.8.8.8
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('webhook target policy', () => {
  it('is public-only in every mode, unless WEBHOOK_ALLOW_PRIVATE', () => {
    for (const NODE_ENV of ['production', 'development', 'test'] as const) {
      const config = loadConfig({ NODE_ENV });
      expect(webhookTargetPolicyOf(config), NODE_ENV).toBe('public-only');
      expect(webhookTargetPolicyOf(loadConfig({ NODE_ENV, WEBHOOK_ALLOW_PRIVATE: 'true' }))).toBe(
        'any',
      );
    }
  });
});

describe('guarded socket lookup', () => {
  const answering =
    (...addresses: string[]): ResolveAll =>
    () =>
      Promise.resolve(
        addresses.map((address): LookupAddress => ({
          address,
          family: address.includes(':') ? 6 : 4,
        })),
      );
  const run = (
    lookup: ReturnType<typeof guardedLookup>,
    all: boolean,
  ): Promise<{ error: Error | null; address: unknown; family: unknown }> =>
    new Promise((resolve) => {
      lookup('hooks.example.com', { all }, (error, address, family) =>
        resolve({ error, address, family }),
      );
    });

  it('refuses a name with any non-public address, naming it', async () => {
    for (const all of [true, false]) {
      const { error } = await run(
        guardedLookup('public-only', answering('93.184.215.14', '10.0.0.5')),
        all,
      );
      expect(error).toBeInstanceOf(RefusedAddressError);
      expect(error?.message).toBe('refused: private address 10.0.0.5');
    }
    const mapped = await run(
      guardedLookup('public-only', answering('::ffff:169.254.169.254')),
      true,
    );
    expect(mapped.error?.message).toBe('refused: private address ::ffff:169.254.169.254');
  });

  it('hands public addresses to the socket in the shape it asked for', async () => {
    const lookup = guardedLookup('public-only', answering('93.184.215.14', '2606:4700::1'));
    expect(await run(lookup, true)).toEqual({
      error: null,
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await run(lookup, false)).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });

  it('lets private addresses through under the any policy', async () => {
    const { error, address } = await run(guardedLookup('any', answering('127.0.0.1')), false);
    expect(error).toBeNull();
    expect(address).toBe('127.0.0.1');
  });

  it('passes on a resolution failure', async () => {
    const failing: ResolveAll = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const { error } = await run(guardedLookup('public-only', failing), false);
    expect((error as NodeJS.ErrnoException | null)?.code).toBe('ENOTFOUND');
  });
});
