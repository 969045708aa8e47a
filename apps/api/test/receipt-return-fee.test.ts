import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Money documents (session 36's review): the receipt of a returned direct debit paid with its bank fee.
 *
 * Where the tenant charges the return fee, paying a returned instalment charges the instalment
 * plus the fee (payments/service.ts `payableCents`; the confirmation shows both, Redsys is asked for
 * the sum). Before session 36 the receipt showed the amount charged (34,25 €) but listed under
 * "Vencimientos pagados" only the instalment (30,25 €): the 4,00 € fee appeared nowhere, and the
 * lines did not add up to the amount. The fee is now a line under its instalment.
 */

const textOf = pdfText;

describe.each(engines())('the receipt of a returned debit paid with its fee on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me } = fixture);
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
    );
  });
  afterAll(async () => fixture.close());

  const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload,
    });

  it('lists the fee it charged, so that its lines add up to its amount', async () => {
    const id = 'REVM-FEE-1';
    const put = await admin('PUT', '/invoices', {
      invoices: [
        {
          id,
          customer_code: me.user.code,
          invoice_date: '2026-03-01',
          base_cents: 2500,
          vat_cents: 525,
          total_cents: 3025,
          lines: [
            { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 2500, vat_rate: 21 },
          ],
          instalments: [
            {
              seq: 1,
              due_date: '2026-03-05',
              amount_cents: 3025,
              method: 'Domiciliación',
              status: 'paid',
              paid_date: '2026-03-05',
            },
          ],
        },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const returned = await admin('POST', '/instalments/returns', {
      returns: [
        { invoice_id: id, seq: 1, return_date: '2026-03-09', reason_code: 'AM04', fee_cents: 400 },
      ],
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const item = await fixture.instalmentOf(id);
    if (!item) throw new Error('no instalment');

    const preview = (await me.post('/redsys/checkout-preview', { payment_ids: [item.id] })).json<{
      amount: number;
      instalments: { amount: number; fee?: number }[];
    }>();
    expect(preview.amount).toBe(34.25);
    expect(preview.instalments[0]).toMatchObject({ amount: 30.25, fee: 4 });

    const res = await me.post('/redsys/init-payment', { amount: 34.25, payment_ids: [item.id] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
    expect(p.Ds_Merchant_Amount).toBe('3425');
    expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);

    const link = await me.post('/documents/receipt', { payment_id: body.payment_id });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    const text = await textOf(pdf.rawPayload);
    expect(text).toContain('34,25 €'); // control: the amount charged
    // The euro amounts of the receipt's lines after "Vencimientos pagados" (the covered table).
    const covered = text.slice(text.indexOf('Vencimientos pagados'));
    const lineCents = [...covered.matchAll(/(\d+),(\d{2}) €/g)].map(
      (m) => Number(m[1]) * 100 + Number(m[2]),
    );
    // Today: [3025]: the 4,00 € fee charged is on no line.
    expect(lineCents.reduce((s, c) => s + c, 0)).toBe(3425);
  });
});
