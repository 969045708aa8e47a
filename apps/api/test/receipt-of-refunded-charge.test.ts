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
 * Review (payment methods and money documents): the receipts list and the receipt PDF of a charge
 * that paid nothing and was refunded whole.
 *
 * The customer opens the card page of an instalment (attempt A), goes Back and pays it again at
 * once (attempt B supersedes A); B pays the instalment. Then the first card page is paid too: A's
 * late authorisation pays nothing, its whole 50 € is an overpayment, refunded (SECURITY.md
 * "Payments"). "Mis pagos" already links the instalment to B's receipt (receipt-of-paying-charge).
 *
 * `GET /documents/receipts` (documents/repository.ts `listReceipts`) and the receipt PDF
 * (`findReceipt`) took every attempt whose status is `paid`, with every instalment it was started
 * for, whether it paid it (`payment_attempt_items.paid`, migration 037) or not, and say nothing of
 * the refund. So the customer gets two receipts of 50 € for the same invoice: A's claims an invoice
 * it never paid, for money that was given back.
 * Before session 36 A was listed as a receipt covering the invoice, and its PDF said it covered it.
 * Now only the payment that paid the instalment claims it: a charge that paid nothing has no
 * receipt, and one that paid part lists what it paid and what went back to the card.
 */

const textOf = pdfText;

describe.each(engines())('the receipt of a charge refunded whole on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me } = fixture);
  });
  afterAll(async () => fixture.close());

  const start = async (instalmentId: string) => {
    const res = await me.post('/redsys/init-payment', { amount: 50, payment_ids: [instalmentId] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    return {
      id: body.payment_id,
      p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
    };
  };

  it('does not list a charge refunded whole as the receipt of the invoice it did not pay', async () => {
    const invoice = 'REVM-RCPT-REFUND';
    const put = await fixture.putInvoice(invoice, 5000, {
      invoiceDate: '2026-02-01',
      dueDate: '2026-02-05',
    });
    expect(put.statusCode, put.body).toBe(200);
    const item = await fixture.instalmentOf(invoice);
    if (!item) throw new Error('no instalment');

    const a = await start(item.id);
    const b = await start(item.id); // Back, and pay again: A is superseded
    expect((await postNotification(app, signedNotification(b.p, '0000'))).statusCode).toBe(200);
    expect((await postNotification(app, signedNotification(a.p, '0000'))).statusCode).toBe(200);
    const [refund] = await db.withOwner((sql) =>
      sql.query<{ amount_cents: number }>(
        "SELECT amount_cents::int AS amount_cents FROM payment_refunds WHERE tenant_id = 'demo' AND attempt_id = $1",
        [a.id],
      ),
    );
    expect(refund?.amount_cents).toBe(5000); // control: A paid nothing, all of it is refunded

    const { receipts } = (await me.get('/documents/receipts')).json<{
      receipts: { payment_id: string; amount: number; invoices: string[] }[];
    }>();
    const label = (id: string) => (id === a.id ? 'A' : id === b.id ? 'B' : id);
    // Today: ['A', 'B'] (two receipts of 50 € for one invoice paid once).
    expect(
      receipts.filter((r) => r.invoices.includes(invoice)).map((r) => label(r.payment_id)),
    ).toEqual(['B']);
  });

  it('does not draw a receipt PDF of a refunded charge saying it covered the invoice', async () => {
    const invoice = 'REVM-RCPT-REFUND2';
    const put = await fixture.putInvoice(invoice, 5000, {
      invoiceDate: '2026-02-02',
      dueDate: '2026-02-06',
    });
    expect(put.statusCode, put.body).toBe(200);
    const item = await fixture.instalmentOf(invoice);
    if (!item) throw new Error('no instalment');
    const a = await start(item.id);
    const b = await start(item.id);
    expect((await postNotification(app, signedNotification(b.p, '0000'))).statusCode).toBe(200);
    expect((await postNotification(app, signedNotification(a.p, '0000'))).statusCode).toBe(200);

    // No receipt for a charge refunded whole (before: a PDF listing the invoice as paid by it).
    const link = await me.post('/documents/receipt', { payment_id: a.id });
    expect(link.statusCode).toBe(404);
    expect((await me.post('/documents/receipt', { payment_id: b.id })).statusCode).toBe(200);
  });

  it('lists on a partly refunded charge what it paid, and what went back to the card', async () => {
    const first = 'S36-RCPT-PART-1';
    const second = 'S36-RCPT-PART-2';
    for (const [invoice, day] of [
      [first, '03'],
      [second, '04'],
    ] as const) {
      const put = await fixture.putInvoice(invoice, invoice === first ? 5000 : 3000, {
        invoiceDate: `2026-02-${day}`,
        dueDate: `2026-02-${day}`,
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const x = await fixture.instalmentOf(first);
    const y = await fixture.instalmentOf(second);
    if (!x || !y) throw new Error('no instalment');
    const both = await me.post('/redsys/init-payment', {
      amount: 80,
      payment_ids: [x.id, y.id],
    });
    expect(both.statusCode, both.body).toBe(200);
    const a = both.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    const b = await start(x.id); // the first invoice alone, in another tab
    expect((await postNotification(app, signedNotification(b.p, '0000'))).statusCode).toBe(200);
    const aParams = decodeMerchantParameters(a.redsys_params.Ds_MerchantParameters ?? '');
    expect((await postNotification(app, signedNotification(aParams, '0000'))).statusCode).toBe(200);
    // The surplus (the first invoice, paid by B) went back to the card.
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_refunds SET status = 'refunded', refunded_at = now()
          WHERE tenant_id = 'demo' AND attempt_id = $1 AND amount_cents = 5000`,
        [a.payment_id],
      ),
    );

    const listed = (await me.get('/documents/receipts')).json<{
      receipts: { payment_id: string; invoices: string[] }[];
    }>().receipts;
    expect(listed.find((r) => r.payment_id === a.payment_id)?.invoices).toEqual([second]);
    const link = await me.post('/documents/receipt', { payment_id: a.payment_id });
    expect(link.statusCode).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    const text = await textOf(pdf.rawPayload);
    expect(text).toContain(second);
    expect(text).not.toContain(first);
    expect(text).toContain('Devuelto a la tarjeta (ya estaba pagado)');
    expect(text).toMatch(/Devuelto a la tarjeta \(ya estaba pagado\)\s*50,00 €/);
  });
});
