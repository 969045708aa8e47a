import { describe, expect, it } from 'vitest';
import { describeDevice, networkOf } from './device.ts';

describe('describeDevice', () => {
  it('names browser, system and kind of device with major versions only', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'iOS 17', device_type: 'mobile' });
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 131', os: 'Windows 10', device_type: 'desktop' });
  });

  it('names only a browser it knows, never words the sender wrote before a slash', () => {
    expect(describeDevice('Actualización del sistema, nada que hacer/2.0 (X11)').browser).toBe('');
    expect(describeDevice('Mozilla/5.0 Seguro/7').browser).toBe('');
    expect(
      describeDevice(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      ).browser,
    ).toBe('Chrome 131');
  });

  it('describes a missing, unknown or absurd User-Agent as unknown', () => {
    expect(describeDevice(undefined)).toEqual({ browser: '', os: '', device_type: '' });
    expect(describeDevice('x'.repeat(600))).toEqual({ browser: '', os: '', device_type: '' });
    expect(describeDevice('curl/8.5.0').device_type).toBe('');
  });
});

describe('networkOf', () => {
  it('keeps an IPv4 /24 and an IPv6 /48, never the address', () => {
    expect(networkOf('83.45.120.17')).toBe('83.45.120.*');
    expect(networkOf('::ffff:83.45.120.17')).toBe('83.45.120.*');
    expect(networkOf('2001:0db8:1234:5678::1')).toBe('2001:db8:1234::/48');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0::/48');
  });

  it('gives nothing for what is not an address', () => {
    expect(networkOf(undefined)).toBe('');
    expect(networkOf('localhost')).toBe('');
  });
});
