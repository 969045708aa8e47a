import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a limit counts a client by: an IPv4 address as it is (an IPv4-mapped IPv6 one too),
 * an IPv6 address by its /64. One host holds a whole /64 (and takes a new address in it at will,
 * as privacy addresses do), so counting single IPv6 addresses let one host guess without limit.
 */
export function limitAddress(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) return v4;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = (ip.split('%')[0] ?? '').split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}
