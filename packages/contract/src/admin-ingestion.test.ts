import { describe, expect, it } from 'vitest';
import {
  isIsoDate,
  ZIngestCustomer,
  ZIngestInvoice,
  ZIngestNotification,
  ZInstalmentStatusChange,
} from './admin-ingestion.ts';

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('ISO dates of the admin API (yyyy-mm-dd)', () => {
  it.each(['2025-01-01', '2024-02-29', '2025-12-31'])('accepts %s', (d) =>
    expect(isIsoDate(d)).toBe(true),
  );
  it.each(['2025-02-30', '2023-02-29', '2025-13-01', '20250101', '2025-1-01', '2025-01-01T00:00'])(
    'refuses %s',
    (d) => expect(isIsoDate(d)).toBe(false),
  );
});

describe('ingestion items', () => {
  it('fills a customer with defaults and never takes a password', () => {
    const parsed = ZIngestCustomer.parse({ code: ' C-1 ', email: 'a@b.es' });
    expect(parsed).toMatchObject({
      code: 'C-1',
      name: '',
      country: 'España',
      language: 'es',
      entry_date: null,
      send_invitation: true,
    });
    const withPassword = ZIngestCustomer.safeParse({ code: 'C-1', email: 'a@b.es', password: 'x' });
    expect(withPassword.error?.issues.map((i) => i.code)).toEqual(['unrecognized_keys']);
  });

  it('wants paid_date with paid and only with paid', () => {
    const base = { invoice_id: 'F-1', seq: 1 };
    expect(
      ZInstalmentStatusChange.safeParse({ ...base, status: 'paid', paid_date: '2026-01-02' })
        .success,
    ).toBe(true);
    expect(issuesOf(ZInstalmentStatusChange.safeParse({ ...base, status: 'paid' }))).toEqual([
      'paid_date: required',
    ]);
    expect(
      issuesOf(
        ZInstalmentStatusChange.safeParse({ ...base, status: 'returned', paid_date: '2026-01-02' }),
      ),
    ).toEqual(['paid_date: invalid_value']);
  });

  it('takes integer cents only, and quantities with at most three decimals', () => {
    const invoice = {
      id: 'F-1',
      customer_code: 'C-1',
      invoice_date: '2026-01-01',
      base_cents: 100,
      vat_cents: 21,
      total_cents: 121,
    };
    expect(ZIngestInvoice.safeParse(invoice).success).toBe(true);
    expect(issuesOf(ZIngestInvoice.safeParse({ ...invoice, base_cents: 1.5 }))).toEqual([
      'base_cents: invalid_type',
    ]);
    const line = { line_no: 1, concept: 'X', unit_price_cents: 1, vat_rate: 21 };
    expect(
      ZIngestInvoice.safeParse({ ...invoice, lines: [{ ...line, quantity: 1.125 }] }).success,
    ).toBe(true);
    expect(
      issuesOf(ZIngestInvoice.safeParse({ ...invoice, lines: [{ ...line, quantity: 1.0005 }] })),
    ).toEqual(['lines.0.quantity: invalid_format']);
  });

  it('links a notification only to a page of the app or an https address (links.ts)', () => {
    const note = { id: 'N-1', customer_code: 'C-1', title: 'T', message: 'M' };
    for (const link of ['/invoices', '/invoice-detail/F-1', 'https://club.example/horario'])
      expect(ZIngestNotification.safeParse({ ...note, link }).success).toBe(true);
    for (const link of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'http://evil.example',
      'javascript:x',
      '/login',
    ])
      expect(ZIngestNotification.safeParse({ ...note, link }).success, link).toBe(false);
  });
});
