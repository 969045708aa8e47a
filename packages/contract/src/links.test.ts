import { describe, expect, it } from 'vitest';
import { isNotificationLink, parseNotificationLink, parseWebsite, phoneHref } from './links.ts';

describe('notification links', () => {
  it.each([
    ['/invoices', { kind: 'app', path: '/invoices' }],
    ['/invoice-detail/F-2025-1', { kind: 'app', path: '/invoice-detail/F-2025-1' }],
    ['/invoice-detail/F%2F2025%2F1', { kind: 'app', path: '/invoice-detail/F%2F2025%2F1' }],
    ['/mis-pagos?pending=1#top', { kind: 'app', path: '/mis-pagos?pending=1#top' }],
    ['/añadir-tarjeta', { kind: 'app', path: '/añadir-tarjeta' }],
    ['/a%C3%B1adir-tarjeta', { kind: 'app', path: '/a%C3%B1adir-tarjeta' }],
    ['/bank-account?id=5', { kind: 'app', path: '/bank-account?id=5' }],
    ['https://club.example/horarios', { kind: 'external', href: 'https://club.example/horarios' }],
    ['https://club.example', { kind: 'external', href: 'https://club.example/' }],
  ])('follows %s', (link, expected) => expect(parseNotificationLink(link)).toEqual(expected));

  it.each([
    ['nothing', ''],
    ['protocol-relative', '//evil.example/x'],
    ['a backslash host', '/\\evil.example'],
    ['backslashes', '/\\\\evil.example'],
    ['a tab trick', '/\t/evil.example'],
    ['a new-line trick', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a leading space', ' /invoices'],
    ['a leading tab', '\t/invoices'],
    ['a leading control', '\u0001/invoices'],
    ['a NUL', '/invoices\u0000'],
    ['a trailing new line', '/invoices\n'],
    ['a zero-width space', '/\u200b/evil.example'],
    ['a bidi override', '/invoices\u202e'],
    ['a lone surrogate', '/invoices\ud800'],
    ['javascript:', 'javascript:alert(1)'],
    ['JavaScript: in mixed case', 'JavaScript:alert(1)'],
    ['javascript: with a tab inside', 'java\tscript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['plain http', 'http://club.example/'],
    ['HTTPS in upper case', 'HTTPS://club.example/'],
    ['https without slashes', 'https:evil.example'],
    ['https with one slash', 'https:/evil.example'],
    ['https with credentials', 'https://user:pass@evil.example/'],
    ['https with a backslash', 'https:\\\\evil.example'],
    ['a relative path', 'invoices'],
    ['a dot path', './invoices'],
    ['a page that is not linkable', '/login'],
    ['a reset link', '/reset-password?token=abc'],
    ['a sign-in callback', '/auth/google/callback?code=x&state=y'],
    ['an unknown page', '/admin'],
    ['a dot segment', '/invoice-detail/..'],
    ['an encoded dot segment', '/invoice-detail/%2E%2E'],
    ['an empty segment', '/invoices/'],
    ['a broken escape', '/invoice-detail/%E0%A4%A'],
    ['an over-long link', `/invoice-detail/${'x'.repeat(600)}`],
    ['a mailto', 'mailto:x@example.com'],
    ['a file', 'file:///etc/passwd'],
  ])('refuses %s', (_what, link) => {
    expect(parseNotificationLink(link)).toBeNull();
    expect(isNotificationLink(link)).toBe(false);
  });

  it('refuses null and undefined', () => {
    expect(parseNotificationLink(null)).toBeNull();
    expect(parseNotificationLink(undefined)).toBeNull();
  });
});

describe('parseWebsite', () => {
  it('takes an https address and gives it back normalised', () => {
    expect(parseWebsite('https://lasencinas.test')).toBe('https://lasencinas.test/');
    expect(parseWebsite('https://www.club.test/horarios?x=1')).toBe(
      'https://www.club.test/horarios?x=1',
    );
  });

  it.each([
    '',
    'http://club.test',
    'HTTPS://club.test',
    'javascript:alert(1)',
    '//club.test',
    'https://user:pass@club.test',
    'https://club.test/a b',
    'https://club.test/\u0000',
    'club.test',
    `https://club.test/${'a'.repeat(200)}`,
  ])('refuses %j', (value) => {
    expect(parseWebsite(value)).toBeNull();
  });
});

describe('phoneHref', () => {
  it('keeps the + and the digits of a number as people write it', () => {
    expect(phoneHref('+34 910 000 000')).toBe('tel:+34910000000');
    expect(phoneHref('(91) 000-00-00')).toBe('tel:910000000');
    expect(phoneHref('91.000.00.00')).toBe('tel:910000000');
  });

  it.each([
    '',
    '12345',
    'call me',
    '+34 910 000 000 ext 2',
    '++34 910',
    '0'.repeat(21),
    'tel:910000000',
  ])('refuses %j', (value) => {
    expect(phoneHref(value)).toBeNull();
  });
});
