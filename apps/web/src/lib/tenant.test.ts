import { describe, expect, it } from 'vitest';
import { apiPrefix } from '@portal/contract/paths';
import { getApiBase, getTenant } from './tenant';

describe('getTenant (spec §1)', () => {
  it('takes the first dot-separated label of the host name', () => {
    expect(getTenant('demo.localhost')).toBe('demo');
    expect(getTenant('acme.portal.example.com')).toBe('acme');
    expect(getTenant('Club-7.Example.com')).toBe('club-7');
  });

  it('answers "1" for localhost, an IPv4 address or a one-label host name', () => {
    expect(getTenant('localhost')).toBe('1');
    expect(getTenant('127.0.0.1')).toBe('1');
    expect(getTenant('192.168.1.20')).toBe('1');
    expect(getTenant('intranet')).toBe('1');
    expect(getTenant('')).toBe('1');
  });

  it('reads window.location by default', () => {
    expect(getTenant()).toBe(getTenant(window.location.hostname));
  });
});

describe('getApiBase', () => {
  it('is /{tenant}/api/1.0', () => {
    expect(getApiBase('demo.localhost')).toBe('/demo/api/1.0');
    expect(getApiBase('localhost')).toBe('/1/api/1.0');
    expect(getApiBase('club.example.com')).toBe(apiPrefix('club'));
  });
});
