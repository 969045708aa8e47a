import type { TInvoiceDetail } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdfBytes, type PdfInput } from '../src/modules/invoices/pdf.ts';
import { renderMandatePdfBytes } from '../src/modules/mandates/pdf.ts';
import { pdfText } from './pdf-text.ts';
import { samplePdfTenant } from './sample-pdf-parties.ts';

/*
 * Review of the PDFs' characters (lib/pdf-fonts.ts): Arimo covers Latin, Greek and Cyrillic, but
 * not Chinese (the third largest foreign community in Spain) nor emoji, which the provider's
 * concepts and the bank-account holder (any 1-120 characters) may carry. pdfkit then draws the
 * font's .notdef glyph (an empty box) and maps it to U+0000: the invoice shows "□□" for the
 * name, and the text a customer copies or a search indexes holds NUL characters.
 */

const invoice: TInvoiceDetail = {
  invoice_id: 'F2026-00083',
  invoice_date: '20260301',
  base: 10,
  iva: 0,
  total: 10,
  import: 10,
  pending: 10,
  to_pay: 10,
  customer_name: '王伟',
  status: 1,
  state: 'pending',
  lines: [
    {
      person: '王小明',
      concept: 'Yoga 🧘 mensual',
      quota: 'Marzo',
      quantity: 1,
      unit_price: 10,
      iva: 0,
      amount: 10,
    },
  ],
  payments: [],
};

const input: PdfInput = {
  invoice,
  tenant: samplePdfTenant(),
  customer: {
    name: '王伟 (Wang Wei)',
    nif: 'X1234567L',
    address: 'Carrer Nou 2',
    postal_code: '08001',
    city: 'Barcelona',
    province: 'Barcelona',
    country: 'España',
    email: 'cliente@demo.test',
  },
  language: 'es',
  todayApi: '20260310',
  createdAt: new Date('2026-03-10T10:00:00Z'),
};

describe('characters the embedded font does not have', () => {
  it('are drawn or replaced visibly on the invoice, never written as NUL', async () => {
    const text = await pdfText(await renderInvoicePdfBytes(input));
    expect(text).toContain('(Wang Wei)');
    expect(text).toContain('mensual');
    expect(text).not.toContain('\u0000');
  });

  it('are drawn or replaced visibly on the signed mandate, never written as NUL', async () => {
    const text = await pdfText(
      await renderMandatePdfBytes({
        mandate: {
          reference: 'M-20260310-ABCDEF123456',
          status: 'active',
          creditor_id: 'ES12ZZZB12345678',
          creditor_name: 'Demo Fitness S.L.',
          creditor_address: 'Carrer Major 1, Girona',
          debtor_name: '王伟 (Wang Wei)',
          debtor_nif: 'X1234567L',
          iban: 'ES91 2100 0418 4502 0005 1332',
          signed_at: new Date('2026-03-10T09:00:00Z'),
          signer_ip: '203.0.113.7',
          replaces_reference: null,
          replaced_by_reference: null,
        },
        brand: { primary_color: '0a7a55', logo_mime: null, logo_data: null },
        language: 'es',
        createdAt: new Date('2026-03-10T10:00:00Z'),
      }),
    );
    expect(text).toContain('(Wang Wei)');
    expect(text).not.toContain('\u0000');
  });
});
