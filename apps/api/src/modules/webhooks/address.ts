import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import type { Config } from '../../config.ts';

/**
 * Where webhooks may be sent. `public-only` (always, unless WEBHOOK_ALLOW_PRIVATE) refuses every
 * address that is not on the public Internet, and plain http, so that a registered URL cannot turn
 * the server into a probe of its own network (SSRF: cloud metadata, databases, admin consoles).
 * The mode (NODE_ENV) changes nothing: a protection that only production has is a protection a
 * forgotten variable turns off.
 */
export type WebhookTargetPolicy = 'public-only' | 'any';

export const webhookTargetPolicyOf = (
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE'>,
): WebhookTargetPolicy => (config.WEBHOOK_ALLOW_PRIVATE ? 'any' : 'public-only');

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). */
const nonPublicIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  nonPublicIpv4.addSubnet(network, prefix, 'ipv4');
}

/** Parts of the global unicast space (2000::/3) that are not public either. */
const nonPublicGlobalIpv6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 32], // Teredo (tunnels to an obfuscated IPv4 address)
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  nonPublicGlobalIpv6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (already checked with `isIPv6`, no zone). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
}

const ipv4Of = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

function isPublicIpv6(address: string): boolean {
  // A zone (fe80::1%eth0) only exists on link-local addresses.
  if (address.includes('%')) return false;
  const g = ipv6Groups(address) as [number, number, number, number, number, number, number, number];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d: the socket reaches the IPv4 address.
  if (zeros(0, 5) && g[5] === 0xffff) return isPublicAddress(ipv4Of(g[6], g[7]));
  // NAT64 64:ff9b::a.b.c.d (DNS64 answers it for IPv4-only hosts): judged by the IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPublicAddress(ipv4Of(g[6], g[7]));
  // Outside 2000::/3 nothing is public: ::, ::1, IPv4-compatible ::a.b.c.d, 64:ff9b:1::/48,
  // 100::/64, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10, ff00::/8 (multicast).
  if ((g[0] & 0xe000) !== 0x2000) return false;
  // 6to4 2002:aabb:ccdd::/48 embeds the IPv4 address a relay forwards to.
  if (g[0] === 0x2002) return isPublicAddress(ipv4Of(g[1], g[2]));
  return !nonPublicGlobalIpv6.check(address, 'ipv6');
}

/**
 * Whether an IP address (IPv4 or IPv6, without brackets) is public unicast: not loopback,
 * private, link-local, carrier-grade NAT, unspecified, multicast, documentation or reserved, also
 * when written as IPv4-mapped IPv6. Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !nonPublicIpv4.check(address, 'ipv4');
  if (isIPv6(address)) return isPublicIpv6(address);
  return false;
}

/** A webhook POST not made because its host is (or resolves to) a non-public address. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_PRIVATE_ADDRESS';
  constructor(readonly address: string) {
    super(`refused: private address ${address}`);
    this.name = 'RefusedAddressError';
  }
}

/** Every address of a host name, as the socket would get them. */
export type ResolveAll = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

const resolveWithDns: ResolveAll = (hostname, options) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * The `lookup` of a webhook's socket. The check runs on the very answer the socket then connects
 * to, so a DNS answer that changes between a check and the connection (DNS rebinding) cannot slip
 * through: there is no separate check. Under `public-only` a host with any non-public address is
 * refused as a whole. (A literal IP in the URL skips `lookup`: check it before connecting.)
 */
export function guardedLookup(
  policy: WebhookTargetPolicy,
  resolveAll: ResolveAll = resolveWithDns,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, options).then(
      (addresses) => {
        const refused =
          policy === 'public-only' ? addresses.find((a) => !isPublicAddress(a.address)) : undefined;
        const first = addresses[0];
        if (refused) callback(new RefusedAddressError(refused.address), '');
        else if (!first) callback(Object.assign(new Error(hostname), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
