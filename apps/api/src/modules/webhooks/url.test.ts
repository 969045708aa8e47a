import { describe, expect, it } from 'vitest';
import { isLoopbackHost, webhookUrlProblem } from './url.ts';

describe('webhook URL rule', () => {
  it.each([
    ['https://erp.example.com/hooks', null, null],
    ['http://erp.example.com/hooks', 'invalid_value', null],
    ['http://localhost:8080/hooks', null, null],
    ['http://127.0.0.1:9000/', null, null],
    ['http://[::1]:9000/', null, null],
    ['http://erp.localhost/', null, null],
    ['https://user:pass@erp.example.com/', 'invalid_format', 'invalid_format'],
    ['https://user@erp.example.com/', 'invalid_format', 'invalid_format'],
    ['ftp://erp.example.com/', 'invalid_format', 'invalid_format'],
    ['not a url', 'invalid_format', 'invalid_format'],
    ['javascript:alert(1)', 'invalid_format', 'invalid_format'],
  ] as const)('%s: production %s, elsewhere %s', (url, production, elsewhere) => {
    expect(webhookUrlProblem(url, { production: true })).toBe(production);
    expect(webhookUrlProblem(url, { production: false })).toBe(elsewhere);
  });

  it('knows loopback hosts', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
  });
});
