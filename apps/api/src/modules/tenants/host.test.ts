import { describe, expect, it } from 'vitest';
import { tenantFromHostname } from './host.ts';

describe('tenantFromHostname (spec §1, as the web app reads it)', () => {
  it('takes the first dot-separated label of the host name', () => {
    expect(tenantFromHostname('demo.localhost')).toBe('demo');
    expect(tenantFromHostname('acme.portal.example.com')).toBe('acme');
    expect(tenantFromHostname('Club-7.Example.com.')).toBe('club-7');
    expect(tenantFromHostname('demo.localhost:3000')).toBe('demo');
  });

  it('answers "1" for localhost, an IPv4 address or a one-label host name', () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      '127.0.0.1',
      '192.168.1.20:8080',
      'intranet',
      '',
    ]) {
      expect(tenantFromHostname(host), host).toBe('1');
    }
  });
});
