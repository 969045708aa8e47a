import { describe, expect, it } from 'vitest';
import { isLoopbackHost, webhookUrlProblem } from './url.ts';

describe('webhook URL rule', () => {
  it.each([
    ['https://erp.example.com/hooks', null, null],
    ['http://erp.example.com/hooks', 'invalid_value', null],
    ['http://localhost:8080/hooks', 'invalid_value', null],
    ['https://localhost:8080/hooks', 'invalid_value', null],
    ['http://127.0.0.1:9000/', 'invalid_value', null],
    ['http://[::1]:9000/', 'invalid_value', null],
    ['https://erp.localhost/', 'invalid_value', null],
    ['http://10.1.2.3/hooks', 'invalid_value', null],
    ['https://user:pass@erp.example.com/', 'invalid_format', 'invalid_format'],
    ['https://user@erp.example.com/', 'invalid_format', 'invalid_format'],
    ['ftp://erp.example.com/', 'invalid_format', 'invalid_format'],
    ['not a url', 'invalid_format', 'invalid_format'],
    ['javascript:alert(1)', 'invalid_format', 'invalid_format'],
  ] as const)(
    '%s: by default %s, with WEBHOOK_ALLOW_PRIVATE %s (in every mode)',
    (url, byDefault, allowingPrivate) => {
      expect(webhookUrlProblem(url, { targets: 'public-only' })).toBe(byDefault);
      expect(webhookUrlProblem(url, { targets: 'any' })).toBe(allowingPrivate);
    },
  );

  it.each([
    'https://10.0.0.5/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://192.168.1.10/',
    'https://172.16.0.1/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'http://127.0.0.1:9000/',
    'https://0x7f.1/', // 127.0.0.1 spelt in hex
    'https://2130706433/', // 127.0.0.1 as one number
    'https://[::1]/',
    'https://[::ffff:10.0.0.5]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
  ])('refuses the literal private address of %s when only public targets are allowed', (url) => {
    expect(webhookUrlProblem(url, { targets: 'public-only' })).toBe('invalid_value');
    // WEBHOOK_ALLOW_PRIVATE (policy `any`): an https URL to the private network is accepted.
    if (url.startsWith('https:')) {
      expect(webhookUrlProblem(url, { targets: 'any' })).toBeNull();
    }
  });

  it('accepts public literals and host names under the public-only policy', () => {
    const publicOnly = { targets: 'public-only' } as const;
    expect(webhookUrlProblem('https://93.184.215.14/hooks', publicOnly)).toBeNull();
    expect(webhookUrlProblem('https://[2606:4700:4700::1111]/hooks', publicOnly)).toBeNull();
    // A name is checked on each connection instead (it may resolve anywhere, and change).
    expect(webhookUrlProblem('https://erp.example.com/hooks', publicOnly)).toBeNull();
  });

  it('knows loopback hosts', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
  });
});
