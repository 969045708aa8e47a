import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * A line's amount (quantity x unit price) is a fact the server computes once and serves; the page
 * and the PDF show it. Before session 37 each computed it in floating point: 1,5 x 0,35 was 0,52
 * on the PDF (1.5 * 0.35 * 100 = 52.4999...) and 0,53 on the page, and -1,5 x 0,35 was -0,52 on
 * the page (Math.round rounds halves up, not away from zero).
 */
describe.each(engines())("an invoice line's amount on $name", (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ app, me } = fixture);
  });
  afterAll(async () => fixture.close());

  it('is quantity times unit price to the cent, half away from zero, the same in the detail and the PDF', async () => {
    const id = 'REV-LINE-HALF';
    const put = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload: {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            invoice_date: '2026-03-01',
            base_cents: 1000,
            vat_cents: 0,
            total_cents: 1000,
            lines: [
              { line_no: 1, concept: 'Toallas', quantity: 1.5, unit_price_cents: 35, vat_rate: 0 },
              {
                line_no: 2,
                concept: 'Devolución',
                quantity: -1.5,
                unit_price_cents: 35,
                vat_rate: 0,
              },
              { line_no: 3, concept: 'Cuota', quantity: 1, unit_price_cents: 1000, vat_rate: 0 },
            ],
            instalments: [
              {
                seq: 1,
                due_date: '2026-03-05',
                amount_cents: 1000,
                method: 'Tarjeta',
                status: 'pending',
              },
            ],
          },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);

    const detail = await me.post('/invoice', { invoice_id: id });
    expect(detail.statusCode, detail.body).toBe(200);
    const { invoice } = detail.json<{
      invoice: { lines: { concept: string; amount: number }[] };
    }>();
    expect(invoice.lines.map((l) => [l.concept, l.amount])).toEqual([
      ['Toallas', 0.53],
      ['Devolución', -0.53],
      ['Cuota', 10],
    ]);

    const link = await me.post('/invoice/pdf', { invoice_id: id });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('0,53');
    expect(text).toContain('-0,53');
    expect(text).not.toContain('0,52');
  });
});
