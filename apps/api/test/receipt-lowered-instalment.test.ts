import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { testPaymentService } from './lost-notifications.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';

/*
 * Review (money documents): the receipt of a late authorisation whose instalment the provider
 * lowered after the attempt was released.
 *
 * The customer opens the card page of a 50 € instalment; the attempt is released; the ERP lowers
 * the instalment to 30 € (allowed: it is in no open payment); then Redsys's late authorisation of
 * 50 € arrives. `payInstalments` pays the 30 € instalment and records 20 € as surplus, refunded.
 * /invoice and "Mis pagos" show the instalment paid at 30 €, the statement credits 30 €.
 *
 * The receipt (documents/repository.ts `findReceipt`) lists each covered instalment at
 * `payment_attempt_items.amount_cents` (what was asked when the attempt started: 50 €), not at what
 * the payment applied to it (30 €): "Vencimientos pagados 50,00 €" plus "Devuelto a la tarjeta
 * 20,00 €" = 70 € for a charge of 50 €.
 */
describe.each(engines())(
  'the receipt of a charge for an instalment lowered meanwhile on $name',
  (engine) => {
    let fixture: ProviderFixture;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    });
    afterAll(async () => fixture.close());

    it('lists the instalment at what the payment paid of it, and its lines and refund add up to the charge', async () => {
      const { app, me, db } = fixture;
      const id = 'REVD-LOWER-1';
      expect(
        (await fixture.putInvoice(id, 5000, { invoiceDate: '2026-01-10', dueDate: '2026-01-10' }))
          .statusCode,
      ).toBe(200);
      const item = await fixture.instalmentOf(id);
      if (!item) throw new Error('no instalment');
      const { paymentId, params: p } = await fixture.startPayment(item.id, 50);
      await testPaymentService(db).releaseAttempt('demo', paymentId);
      // The ERP lowers the instalment to 30 €.
      expect(
        (await fixture.putInvoice(id, 3000, { invoiceDate: '2026-01-10', dueDate: '2026-01-10' }))
          .statusCode,
      ).toBe(200);
      expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
      // The 20 € surplus went back to the card.
      await db.withOwner((sql) =>
        sql.query(
          `UPDATE payment_refunds SET status = 'refunded', refunded_at = now()
          WHERE tenant_id = 'demo' AND attempt_id = $1`,
          [paymentId],
        ),
      );

      // Control: the portal's own facts: the instalment of 30 € is paid.
      const detail = (await me.post('/invoice', { invoice_id: id })).json<{
        invoice: { payments: { import: number; status: string }[] };
      }>().invoice;
      expect(detail.payments).toMatchObject([{ import: 30, status: 'paid' }]);

      const link = await me.post('/documents/receipt', {
        payment_id: paymentId,
        language: 'es',
      });
      expect(link.statusCode, link.body).toBe(200);
      const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
      expect(pdf.statusCode).toBe(200);
      const text = await pdfText(pdf.rawPayload);
      expect(text).toContain('50,00 €'); // control: the amount charged
      const covered = text.slice(text.indexOf('Vencimientos pagados'));
      const lineCents = [...covered.matchAll(/(\d+),(\d{2}) €/g)].map(
        (m) => Number(m[1]) * 100 + Number(m[2]),
      );
      // Today: [5000, 2000]: the instalment line says 50 € paid and 20 € refunded, 70 € of 50 €.
      expect(lineCents).toEqual([3000, 2000]);
    });
  },
);
