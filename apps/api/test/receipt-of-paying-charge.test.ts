import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Money review 2: the receipt "Mis pagos" links an instalment to, after an overpayment.
 *
 * The scenario (SECURITY.md "Money is never silently lost"): the customer opens the card page of an
 * instalment (attempt A), goes Back and pays it again at once (attempt B supersedes A); B is
 * authorised and pays the instalment. Then the first card page is paid too: A's late authorisation
 * pays nothing, and its whole amount is an overpayment, refunded.
 *
 * "Mis pagos" shows each paid instalment's "Justificante" (`receipt_id`, invoices/repository.ts
 * `paymentsPageSql`): the LATEST `paid` attempt that holds the instalment, whether or not it paid
 * it. A settled last, so the instalment's receipt is A's: a receipt of 50 € for that instalment, by
 * a charge that paid nothing and was refunded whole (the receipt says nothing of the refund), while
 * B, the payment that did pay it, is no longer reachable from the instalment.
 * Today: receipt_id = A (the refunded charge). Should: the receipt of the payment that paid the
 * instalment, B.
 */

describe.each(engines())('the receipt of an instalment paid twice on $name', (engine) => {
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

  it('links the instalment to the payment that paid it, not to a later charge refunded whole', async () => {
    const put = await fixture.putInvoice('REV2M-RCPT', 5000, {
      invoiceDate: '2026-02-01',
      dueDate: '2026-02-05',
    });
    expect(put.statusCode, put.body).toBe(200);
    const [item] = await db.withOwner((sql) =>
      sql.query<{ id: string }>(
        "SELECT id::text FROM instalments WHERE tenant_id = 'demo' AND invoice_id = 'REV2M-RCPT'",
      ),
    );
    if (!item) throw new Error('no instalment');

    const a = await start(item.id);
    const b = await start(item.id); // Back, and pay again: A is superseded
    expect((await postNotification(app, signedNotification(b.p, '0000'))).statusCode).toBe(200);
    // The first card page is paid too: an overpayment of the whole 50 €.
    expect((await postNotification(app, signedNotification(a.p, '0000'))).statusCode).toBe(200);
    const [refund] = await db.withOwner((sql) =>
      sql.query<{ amount_cents: number }>(
        "SELECT amount_cents FROM payment_refunds WHERE tenant_id = 'demo' AND attempt_id = $1",
        [a.id],
      ),
    );
    expect(refund?.amount_cents).toBe(5000); // control: A paid nothing, all of it is refunded

    const { payments } = (
      await me.post('/payments', { datefrom: '20260201', dateto: '20260228', page: '1' })
    ).json<{ payments: { payment_id: string; status: string; receipt_id?: string }[] }>();
    const row = payments.find((p) => p.payment_id === item.id);
    const label = (id?: string) => (id === a.id ? 'A' : id === b.id ? 'B' : (id ?? null));
    // Today: { status: 'paid', receipt: 'A' }: the charge refunded whole.
    expect({ status: row?.status, receipt: label(row?.receipt_id) }).toEqual({
      status: 'paid',
      receipt: 'B',
    });
  });
});
