import { describe, expect, it } from 'vitest';
import { limitAddress } from './limit-address.ts';

describe('limitAddress', () => {
  it('keeps an IPv4 address, mapped or not', () => {
    expect(limitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one', () => {
    const a = limitAddress('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:0db8:0001:0002:abcd:ef01:2345:6789')).toBe(a);
    expect(limitAddress('2001:db8:1:2:ffff::9')).toBe(a);
    expect(limitAddress('2001:db8:1:3::1')).not.toBe(a);
    expect(limitAddress('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(limitAddress('')).toBe('');
    expect(limitAddress('not-an-ip')).toBe('not-an-ip');
  });
});
