import { describe, expect, it } from 'vitest';
import { renderInvoicePdfBytes } from '../src/modules/invoices/pdf.ts';
import { pdfText } from './pdf-text.ts';
import { samplePdfInput, samplePdfLine } from './sample-pdf-parties.ts';

/*
 * Review of the invoice PDF's figures against the invoice detail the API serves
 * (apps/api/src/modules/invoices/pdf.ts, "Totals" and "Instalments").
 */

describe('the invoice PDF states what the invoice detail serves', () => {
  it('breaks the VAT down by rate when the lines carry different rates', async () => {
    // A school: the monthly fee at 21 % and the canteen at 10 %. RD 1619/2012 art. 6.2 asks for
    // the base of each rate and art. 6.1 g-h its rate and its tax; the PDF gives one "IVA" total.
    const text = await pdfText(
      await renderInvoicePdfBytes(
        samplePdfInput({
          base: 150,
          iva: 26,
          total: 176,
          import: 176,
          pending: 176,
          to_pay: 176,
          lines: [
            samplePdfLine({ price: 100 }),
            samplePdfLine({ concept: 'Comedor', price: 50, iva: 10 }),
          ],
        }),
      ),
    );
    // The tax of each rate: 21 % of 100,00 and 10 % of 50,00.
    expect(text).toMatch(/(^|\s)21,00 €/);
    expect(text).toMatch(/(^|\s)5,00 €/);
  });

  it("shows the bank's fee of a returned direct debit that the customer is charged", async () => {
    // The page (ReturnedDebitNote) and "Pagar" (to_pay) both include the 3,50 € fee; the PDF says
    // only "Devuelto" and "Pendiente de pago 6,05 €".
    const text = await pdfText(
      await renderInvoicePdfBytes(
        samplePdfInput({
          base: 10,
          iva: 2.1,
          total: 12.1,
          pending: 6.05,
          to_pay: 9.55,
          state: 'returned',
          lines: [samplePdfLine()],
          payments: [
            {
              payment_id: 'p1',
              duedate: '20260205',
              method: 'Domiciliación bancaria',
              method_kind: 'direct_debit',
              import: 6.05,
              paiddate: '20260205',
              state: 'paid',
              status: 'paid',
            },
            {
              payment_id: 'p2',
              duedate: '20260305',
              method: 'Domiciliación bancaria',
              method_kind: 'direct_debit',
              import: 6.05,
              paiddate: null,
              state: 'returned',
              status: 'returned',
              returned: {
                return_date: '20260308',
                reason_code: 'AM04',
                fee: 3.5,
                fee_charged: true,
              },
            },
          ],
        }),
      ),
    );
    expect(text).toContain('Devuelto');
    expect(text).toContain('3,50 €');
  });

  it('says a credit note is one, not "FACTURA" with negative amounts', async () => {
    // The API serves state `credit_note` (the page's badge reads "Abono"); a rectifying invoice
    // must say so (RD 1619/2012 art. 15).
    const text = await pdfText(
      await renderInvoicePdfBytes(
        samplePdfInput({
          base: -50,
          iva: -10.5,
          total: -60.5,
          import: -60.5,
          pending: 0,
          to_pay: 0,
          status: 0,
          state: 'credit_note',
          lines: [samplePdfLine({ concept: 'Devolución cuota', price: -50 })],
        }),
      ),
    );
    expect(text).toContain('-60,50 €');
    expect(text).toMatch(/abono|rectificativa/i);
  });
});
