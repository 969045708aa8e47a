import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * The invoice detail's "Pendiente de pago" showed the detail's `pending`, what the instalments owe
 * without the bank fee of a returned debit the tenant charges, while the list's `amount` and the
 * PDF's "Pendiente de pago" show what there is to pay, the fee included. The server computes that
 * once and serves it as the detail's `to_pay` (invoices/service.ts `detail`); the web app shows it
 * (invoice-view.tsx). This pins the facts the page relies on, for an invoice with a returned
 * instalment whose fee is charged.
 */
describe.each(engines())(
  'what there is to pay of an invoice with a charged return fee, in the detail, on $name',
  (engine) => {
    let fixture: ProviderFixture;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
      await fixture.chargeReturnFees();
    });
    afterAll(async () => fixture.close());

    it('is the list amount and the PDF figure: the fee included, `pending` without it', async () => {
      const { me, app } = fixture;
      const id = 'DETAIL-TO-PAY-FEE';
      const put = await fixture.admin('PUT', '/invoices', {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            // A month of its own, long before the demo data.
            invoice_date: '2011-04-01',
            base_cents: 5000,
            vat_cents: 0,
            total_cents: 5000,
            lines: [
              { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 5000, vat_rate: 0 },
            ],
            instalments: [
              {
                seq: 1,
                due_date: '2011-04-05',
                amount_cents: 2500,
                method: 'Domiciliación',
                status: 'paid',
                paid_date: '2011-04-05',
              },
              {
                seq: 2,
                due_date: '2011-05-05',
                amount_cents: 2500,
                method: 'Domiciliación',
                status: 'paid',
                paid_date: '2011-05-05',
              },
            ],
          },
        ],
      });
      expect(put.statusCode, put.body).toBe(200);
      const returned = await fixture.admin('POST', '/instalments/returns', {
        returns: [
          {
            invoice_id: id,
            seq: 2,
            return_date: '2011-05-09',
            reason_code: 'AM04',
            fee_cents: 350,
          },
        ],
      });
      expect(returned.statusCode, returned.body).toBe(200);

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
