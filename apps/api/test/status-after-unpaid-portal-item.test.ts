import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Session 37 review of the ingestion input: an instalment a card payment was started for but did NOT pay is
 * taken for one "paid in the portal", so the provider can no longer return or reopen its direct
 * debit.
 *
 * What was wrong (fixed in session 37): `paidInPortalSql` (apps/api/src/modules/payments/repository.ts) says an instalment
 * was paid in the portal when it is `paid` and ANY authorised payment attempt holds it as an item,
 * without looking at `payment_attempt_items.paid` (migration 037: whether that payment actually
 * paid the instalment). A charge that paid nothing of the instalment (the provider raised it after
 * the card page was let go: the charge is a surplus, refunded, the instalment stays pending) still
 * counts. When the instalment is later collected by direct debit (`POST /admin/instalments/status`
 * `paid`) and the bank returns that debit, `POST /admin/instalments/returns` and the `returned` or
 * `pending` state through `/admin/instalments/status` are refused with `instalment_locked`.
 *
 * Why it matters: docs/ingestion.md promises "a paid direct debit can be returned"; the lock is
 * only for an instalment "a payment in the portal (card, Bizum) paid". Here the portal's payment
 * was refunded, the debit came back, and the portal keeps showing the instalment paid: the
 * organisation cannot tell the customer they owe it again (the money vanishes from the books).
 *
 * Right behaviour: only an attempt that paid the instalment (`x.paid IS NOT FALSE`, NULL for rows
 * from before 037) makes it "paid in the portal"; the return is accepted and the instalment owed.
 */

const box = createSecretBox(randomBytes(32));
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a debit returned after a refunded card charge on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let service: ReturnType<typeof createPaymentService>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me } = fixture);
    service = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: 'http://127.0.0.1:9',
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      log: quiet,
    });
  });
  afterAll(async () => fixture.close());

  const admin = (path: string, payload: object) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload,
    });

  /** A card payment of the instalment, let go, then raised by the provider, then authorised. */
  const chargedButNotPaid = async (invoiceId: string) => {
    expect((await fixture.putInvoice(invoiceId, 5000)).statusCode).toBe(200);
    const item = await fixture.instalmentOf(invoiceId);
    if (!item) throw new Error('no instalment');
    const res = await me.post('/redsys/init-payment', { amount: 50, payment_ids: [item.id] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
    await service.releaseAttempt('demo', body.payment_id);
    // The provider raises the invoice to 60 € while nothing holds it.
    expect((await fixture.putInvoice(invoiceId, 6000)).statusCode).toBe(200);
    // The 50 € charge arrives late: it does not cover 60 €, so it pays nothing (a surplus).
    expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
    const after = await fixture.instalmentOf(invoiceId);
    expect(after?.status).toBe('pending');
    const [paid] = await db.withOwner((sql) =>
      sql.query<{ paid: boolean | null }>(
        `SELECT paid FROM payment_attempt_items WHERE tenant_id = 'demo' AND attempt_id = $1`,
        [body.payment_id],
      ),
    );
    expect(paid?.paid).toBe(false);
    // The 60 € are then collected by direct debit, as the back office records.
    const debit = await admin('/instalments/status', {
      changes: [{ invoice_id: invoiceId, seq: 1, status: 'paid', paid_date: '2026-02-05' }],
    });
    expect(debit.statusCode, debit.body).toBe(200);
  };

  it('takes the return of the direct debit that paid it', async () => {
    await chargedButNotPaid('REV-ING-UNPAID-1');
    const res = await admin('/instalments/returns', {
      returns: [
        {
          invoice_id: 'REV-ING-UNPAID-1',
          seq: 1,
          return_date: '2026-02-09',
          reason_code: 'AM04',
          fee_cents: 0,
        },
      ],
    });
    // Today: 422 {"errors":{"returns.0":["instalment_locked"]}}.
    expect(res.statusCode, res.body).toBe(200);
    expect((await fixture.instalmentOf('REV-ING-UNPAID-1'))?.status).toBe('returned');
  });

  it('takes the back office setting it back to pending', async () => {
    await chargedButNotPaid('REV-ING-UNPAID-2');
    const res = await admin('/instalments/status', {
      changes: [{ invoice_id: 'REV-ING-UNPAID-2', seq: 1, status: 'pending' }],
    });
    // Today: 422 {"errors":{"changes.0.status":["instalment_locked"]}}.
    expect(res.statusCode, res.body).toBe(200);
    expect((await fixture.instalmentOf('REV-ING-UNPAID-2'))?.status).toBe('pending');
  });
});
