import type { TInvoiceDetail } from '@portal/contract';
import type { PdfCustomer, PdfInput, PdfTenant } from '../src/modules/invoices/pdf.ts';

/** A tenant as the invoice PDF prints it: the PDF tests' issuer (a copy each, to change freely). */
export const samplePdfTenant = (): PdfTenant => ({
  company_name: 'Demo Fitness',
  legal_name: 'Demo Fitness S.L.',
  legal_nif: 'B12345678',
  legal_address: 'Carrer Major 1, Girona',
  contact_email: 'secretaria@demo.test',
  primary_color: '0a7a55',
  logo_mime: null,
  logo_data: null,
});

/** The PDF tests' recipient (a copy each). */
export const samplePdfCustomer = (): PdfCustomer => ({
  name: 'Laura García',
  nif: '12345678Z',
  address: 'Carrer Nou 2',
  postal_code: '17001',
  city: 'Girona',
  province: 'Girona',
  country: 'España',
  email: 'cliente@demo.test',
});

/** One line of a sample invoice: a month's fee of 10 € at 21 %, or what `line` says. */
export const samplePdfLine = (line: { concept?: string; price?: number; iva?: number } = {}) => ({
  person: 'Pau',
  concept: line.concept ?? 'Cuota',
  quota: 'Marzo',
  quantity: 1,
  unit_price: line.price ?? 10,
  iva: line.iva ?? 21,
  amount: line.price ?? 10,
});

/**
 * What the invoice PDF is drawn from: F2026-00083 of 01/03/2026, 10 € + 21 % VAT still owed, with
 * no lines and no instalments unless `invoice` says; the sample issuer and recipient, in Spanish,
 * drawn on 10/03/2026, unless `fields` say otherwise.
 */
export const samplePdfInput = (
  invoice: Partial<TInvoiceDetail> = {},
  fields: Partial<PdfInput> = {},
): PdfInput => ({
  invoice: {
    invoice_id: 'F2026-00083',
    invoice_date: '20260301',
    base: 10,
    iva: 2.1,
    total: 12.1,
    import: 12.1,
    pending: 12.1,
    to_pay: 12.1,
    customer_name: 'Laura García',
    status: 1,
    state: 'pending',
    lines: [],
    payments: [],
    ...invoice,
  },
  tenant: samplePdfTenant(),
  customer: samplePdfCustomer(),
  language: 'es',
  todayApi: '20260310',
  createdAt: new Date('2026-03-10T10:00:00Z'),
  ...fields,
});
