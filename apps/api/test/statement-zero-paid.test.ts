import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * Review (money documents): the statement PDF of a period with no payment prints
 * "Pagado en el periodo -0,00 €".
 *
 * statement-pdf.ts draws the paid total as `-s.paid_cents` (payments take away from the balance);
 * with nothing paid that is JavaScript's negative zero, and `Intl.NumberFormat` (signDisplay
 * "auto") prints the sign of a negative zero: "-0,00 €". The CSV and the API say 0. Every empty
 * period, a customer with nothing, or a month with invoices but no payment shows it.
 */
describe.each(engines())('the paid total of a statement with no payment on $name', (engine) => {
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => fixture.close());

  const statementPdf = async (datefrom: string, dateto: string) => {
    const link = await fixture.me.post('/documents/statement', {
      datefrom,
      dateto,
      format: 'pdf',
      language: 'es',
    });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await fixture.app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    return pdfText(pdf.rawPayload);
  };

  it('prints 0,00 €, not -0,00 €, for an empty period', async () => {
    // A period long before the demo data: nothing in it, nothing before it.
    const text = await statementPdf('20010101', '20011231');
    expect(text).toContain('Sin movimientos en el periodo.'); // control
    // Today: "Pagado en el periodo -0,00 €".
    expect(text).not.toContain('-0,00 €');
  });

  it('prints 0,00 € paid for a month with an invoice and no payment', async () => {
    const put = await fixture.putInvoice('REVD-NEGZERO-1', 4500, {
      invoiceDate: '2002-03-10',
      dueDate: '2002-03-10',
    });
    expect(put.statusCode, put.body).toBe(200);
    const text = await statementPdf('20020301', '20020331');
    expect(text).toContain('45,00 €'); // control: the invoice
    expect(text).not.toContain('-0,00 €');
  });
});
