import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it.each([
    [
      '/reset-password?token=abc123&email=a%40b.es',
      '/reset-password?token=[redacted]&email=[redacted]',
    ],
    [
      '/auth/google/callback?code=xyz&state=s1',
      '/auth/google/callback?code=[redacted]&state=[redacted]',
    ],
    ['/demo/api/1.0/invoice/pdf/eyJ0IjoiZGVtbyJ9.c2ln', '/demo/api/1.0/invoice/pdf/[redacted]'],
    [
      '/demo/api/1.0/invoice/pdf/eyJ0.c2ln?x=1',
      '/demo/api/1.0/invoice/pdf/[redacted]?x=[redacted]',
    ],
    ['/demo/api/1.0/visual-config', '/demo/api/1.0/visual-config'],
    ['/demo/api/1.0/documents/receipt/eyJ0.c2ln', '/demo/api/1.0/documents/receipt/[redacted]'],
    ['/demo/api/1.0/documents/statement/eyJ0.c2ln', '/demo/api/1.0/documents/statement/[redacted]'],
    [
      '/demo/api/1.0/documents/invoices-zip/eyJ0.c2ln?id=F1&id=F2',
      '/demo/api/1.0/documents/invoices-zip/[redacted]?id=[redacted]&id=[redacted]',
    ],
    ['/login?', '/login'],
    ['/login?flag', '/login?flag'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
