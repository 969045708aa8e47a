import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * Money facts (review 3): what is still owed of an invoice with a returned debit whose bank fee the
 * tenant charges, in the invoice list beside every other screen.
 *
 * Session 36 made the summary count the fee ("what is pending counts a returned debit's fee the
 * tenant charges, as the balance does", summary-return-fee.test.ts); the invoice's `to_pay`, its
 * PDF ("Pendiente de pago"), the statement and `GET /balance` count it too. The list item's
 * `amount`, "what is still owed" (contract `ZInvoiceListItem`), is `owed_cents` alone
 * (invoices/service.ts `toListItem`, repository `owedAndLateLateral`): for a month holding this one
 * invoice, home's summary says 53,50 € pending while the list of that month says "Pendiente:
 * 50,00 €", and the row's "Pagar" carries 50,00 € to a checkout that then asks 53,50 €.
 */
describe.each(engines())(
  'the list amount of an invoice with a charged return fee on $name',
  (engine) => {
    let fixture: ProviderFixture;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
      await fixture.chargeReturnFees();
    });
    afterAll(async () => fixture.close());

    /**
     * A 50 € invoice of `year`-04-01 (a month of its own, long before the demo data) paid in two
     * direct debits of 25 €, the second returned by the bank with a 3,50 € fee the tenant charges.
     */
    async function returnedWithFee(id: string, year: string) {
      const put = await fixture.admin('PUT', '/invoices', {
        invoices: [
          {
            id,
            customer_code: fixture.me.user.code,
            invoice_date: `${year}-04-01`,
            base_cents: 5000,
            vat_cents: 0,
            total_cents: 5000,
            lines: [
              { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 5000, vat_rate: 0 },
            ],
            instalments: [1, 2].map((seq) => ({
              seq,
              due_date: `${year}-0${seq + 3}-05`,
              amount_cents: 2500,
              method: 'Domiciliación',
              status: 'paid',
              paid_date: `${year}-0${seq + 3}-05`,
            })),
          },
        ],
      });
      expect(put.statusCode, put.body).toBe(200);
      const returned = await fixture.admin('POST', '/instalments/returns', {
        returns: [
          {
            invoice_id: id,
            seq: 2,
            return_date: `${year}-05-09`,
            reason_code: 'AM04',
            fee_cents: 350,
          },
        ],
      });
      expect(returned.statusCode, returned.body).toBe(200);
    }

    it('owes in the list what the summary, the detail and the statement say is owed', async () => {
      const { me, app } = fixture;
      const id = 'R3F-LIST-FEE';
      await returnedWithFee(id, '2010');

      const month = { datefrom: '20100401', dateto: '20100430' };
      const listed = (await me.post('/invoices', { ...month, page: '1' }))
        .json<{ invoices: { invoice_id: string; amount: number }[] }>()
        .invoices.find((i) => i.invoice_id === id);
      const summary = (await me.post('/invoices/summary', month)).json<{
        summary: { total_invoices: number; total_pending: number };
      }>().summary;
      const detail = (await me.post('/invoice', { invoice_id: id })).json<{
        invoice: { to_pay: number };
      }>().invoice;
      const statement = await statementCsv(app, me, '20100401', '20150331');
      // Control: every other place says 28,50 € is owed of it (25 € plus the 3,50 € fee).
      expect({
        summary: summary.total_pending,
        toPay: detail.to_pay,
        statement: statement.closing - statement.opening,
      }).toEqual({ summary: 28.5, toPay: 28.5, statement: 2850 });
      // Today: 25 (the fee left out of what the list says is owed).
      expect(listed?.amount, 'the list says what the summary says is pending').toBe(
        summary.total_pending,
      );
    });

    /*
     * The invoice detail's "Pendiente de pago" showed the detail's `pending`, without the fee,
     * while the list's `amount` and the PDF's "Pendiente de pago" show what there is to pay. The
     * server serves that as the detail's `to_pay` (invoices/service.ts `detail`), which the web
     * app shows (invoice-view.tsx): these are the facts the page relies on.
     */
    it("serves as the detail's to_pay the list amount and the PDF figure: the fee included, `pending` without it", async () => {
      const { me, app } = fixture;
      const id = 'DETAIL-TO-PAY-FEE';
      await returnedWithFee(id, '2011');

      const detailRes = await me.post('/invoice', { invoice_id: id });
      expect(detailRes.statusCode, detailRes.body).toBe(200);
      const detail = detailRes.json<{
        invoice: {
          pending: number;
          to_pay: number;
          state: string;
          payments: { status: string; returned?: { fee: number; fee_charged: boolean } }[];
        };
      }>().invoice;
      expect(detail.state).toBe('returned');
      expect(detail.payments[1]?.returned).toMatchObject({ fee: 3.5, fee_charged: true });
      // 25 € of the returned instalment plus its 3,50 € fee; `pending` is the instalment alone.
      expect({ pending: detail.pending, toPay: detail.to_pay }).toEqual({
        pending: 25,
        toPay: 28.5,
      });

      const listed = (
        await me.post('/invoices', { datefrom: '20110401', dateto: '20110430', page: '1' })
      )
        .json<{ invoices: { invoice_id: string; amount: number }[] }>()
        .invoices.find((i) => i.invoice_id === id);
      expect(listed?.amount, "the list's amount is the detail's to_pay").toBe(detail.to_pay);

      const link = await me.post('/invoice/pdf', { invoice_id: id, language: 'es' });
      expect(link.statusCode, link.body).toBe(200);
      const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
      expect(pdf.statusCode).toBe(200);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      expect(text, "the PDF's figure is the detail's to_pay").toMatch(/Pendiente de pago 28,50 €/);
      expect(text).toMatch(/Gastos de devolución 3,50 €/);
    });
  },
);
