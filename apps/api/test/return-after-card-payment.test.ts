import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Money review 2: a returned direct debit reported for an instalment the customer has PAID BY CARD
 * in the portal.
 *
 * The scenario: the provider's ERP sends the month's SEPA remittance (the instalment's method is
 * "Domiciliación"); before the debit reaches the customer's account, the customer pays the same
 * instalment by card in the portal (Redsys authorises it; the instalment is `paid`, method
 * "Tarjeta"). The customer's bank then returns the debit (or the customer has it returned, MD06,
 * since they already paid): the ERP reports the return through POST /admin/instalments/returns
 * (or /admin/instalments/status `returned`), as the bank's return file lists it.
 *
 * A debit coming back undoes the debit, never the card payment: the card money is still the
 * organisation's, so the instalment is still paid. But `report` (returned-debits/service.ts) only
 * refuses a cancelled instalment or one in an open payment: the card-paid instalment becomes
 * `returned`, "owed again", plus the bank's fee where the tenant charges it, and the customer is
 * told to pay it (notification and e-mail) and shown it in "what you owe".
 * Today: the customer is asked to pay a second time 30.25 € (+3.50 € fee) they already paid by card.
 * Should: the return of an instalment a portal payment (card/Bizum) paid is refused
 * (`invalid_value`/`instalment_locked` on `returns.N`) or recorded without reopening it: the
 * instalment stays paid and is not owed.
 */

describe.each(engines())('a debit return of an instalment paid by card on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let apiKey: string;

  let fixture: ProviderFixture;
  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me, apiKey } = fixture);
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
    );
  });
  afterAll(async () => fixture.close());

  const admin = (path: string, payload: object) =>
    app.inject({
      method: path === '/invoices' ? 'PUT' : 'POST',
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${apiKey}` },
      payload,
    });

  /** An instalment of 30.25 € to be debited, which the customer then pays by card in the portal. */
  async function paidByCard(invoiceId: string): Promise<{ id: string }> {
    const put = await fixture.putInvoice(invoiceId, 3025, {
      invoiceDate: '2026-03-01',
      dueDate: '2099-03-05',
      method: 'Domiciliación',
    });
    expect(put.statusCode, put.body).toBe(200);
    const [item] = await db.withOwner((sql) =>
      sql.query<{ id: string }>(
        "SELECT id::text FROM instalments WHERE tenant_id = 'demo' AND invoice_id = $1",
        [invoiceId],
      ),
    );
    if (!item) throw new Error('no instalment');
    // The customer pays it by card in the portal; Redsys authorises it.
    const started = await me.post('/redsys/init-payment', {
      amount: 30.25,
      payment_ids: [item.id],
    });
    expect(started.statusCode, started.body).toBe(200);
    const p = decodeMerchantParameters(
      started.json<{ redsys_params: Record<string, string> }>().redsys_params
        .Ds_MerchantParameters ?? '',
    );
    expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
    return item;
  }

  const statusOf = async (id: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ status: string }>(
          "SELECT status FROM instalments WHERE tenant_id = 'demo' AND id = $1",
          [id],
        ),
      )
    )[0]?.status;

  it.each(['pending', 'cancelled'] as const)(
    'keeps the card payment: POST /admin/instalments/status cannot set it %s (session 36)',
    async (status) => {
      const invoiceId = `S36-STATUS-${status}`;
      const item = await paidByCard(invoiceId);
      const changed = await admin('/instalments/status', {
        changes: [{ invoice_id: invoiceId, seq: 1, status }],
      });
      expect(changed.statusCode, changed.body).toBe(422);
      expect(changed.json()).toMatchObject({
        errors: { 'changes.0.status': ['instalment_locked'] },
      });
      expect(await statusOf(item.id)).toBe('paid');
      // Setting it paid (the back office's own record of the same payment) is still accepted.
      const paid = await admin('/instalments/status', {
        changes: [{ invoice_id: invoiceId, seq: 1, status: 'paid', paid_date: todayIso() }],
      });
      expect(paid.statusCode, paid.body).toBe(200);
    },
  );

  it.each([
    ['POST /admin/instalments/returns', 'returns'],
    ['POST /admin/instalments/status (returned)', 'status'],
  ] as const)(
    'keeps the card payment: %s does not make the customer owe it again',
    async (_, how) => {
      const invoiceId = `REV2M-RET-${how}`;
      const item = await paidByCard(invoiceId);

      // The bank returns the SEPA debit that had been sent before; the ERP reports it.
      const reported =
        how === 'returns'
          ? await admin('/instalments/returns', {
              returns: [
                {
                  invoice_id: invoiceId,
                  seq: 1,
                  return_date: todayIso(),
                  reason_code: 'MD06',
                  fee_cents: 350,
                },
              ],
            })
          : await admin('/instalments/status', {
              changes: [
                {
                  invoice_id: invoiceId,
                  seq: 1,
                  status: 'returned',
                  return_reason_code: 'MD06',
                  return_fee_cents: 350,
                },
              ],
            });
      expect([200, 422]).toContain(reported.statusCode);

      const [state] = await db.withOwner((sql) =>
        sql.query<{ status: string }>(
          "SELECT status FROM instalments WHERE tenant_id = 'demo' AND id = $1",
          [item.id],
        ),
      );
      // What paying it again would charge (the confirmation the notification and e-mail open).
      const preview = await me.post('/redsys/checkout-preview', { payment_ids: [item.id] });
      // Today: { status: 'returned', preview: 200, amount: 33.75 }: 30.25 € + the 3.50 € fee asked
      // for again, for an instalment already paid by card.
      expect({
        status: state?.status,
        preview: preview.statusCode,
        amount: preview.statusCode === 200 ? preview.json<{ amount: number }>().amount : null,
      }).toEqual({ status: 'paid', preview: 422, amount: null });
    },
  );
});
