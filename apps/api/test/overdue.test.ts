import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

type Balance = {
  outstanding: number;
  outstanding_count: number;
  overdue: number;
  overdue_count: number;
  next_due_date: string | null;
  pay: { scope: 'overdue' | 'pending' | 'none'; amount: number; payment_ids: string[] };
};
type Payment = { payment_id: string; invoice_id: string; amount: number; status: string };

/**
 * "Overdue" is decided once, by the server, on the business day in Madrid (PRODUCT.md "Screens"):
 * an instalment due on 10 February 2020 is still on time at 23:59 in Madrid (22:59 UTC) and
 * overdue one minute later, at 00:00 on the 11th in Madrid, while the UTC date is still the 10th.
 */
describe.each(engines())('overdue and what is owed, on the Madrid day, on $name', (engine) => {
  const invoiceId = 'T-MIDNIGHT-1';
  const beforeMidnight = new Date('2020-02-10T22:59:00Z');
  const afterMidnight = new Date('2020-02-10T23:00:00Z');
  let clock = beforeMidnight;
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let instalmentId = '';

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, {}, undefined, undefined, () => clock);
    me = await signedIn(app, 'demo');
    // One invoice of 30 €, 10 € paid at once and 20 € due on 10 February 2020.
    instalmentId = await db.withOwner(async (sql) => {
      const [customer] = await sql.query<{ id: string }>(
        `SELECT id FROM customers WHERE tenant_id = 'demo' AND email = $1`,
        [demoEmail],
      );
      await sql.query(
        `INSERT INTO invoices (tenant_id, id, customer_id, invoice_date, base_cents, vat_cents, total_cents)
         VALUES ('demo', $1, $2, '2019-12-20', 2479, 521, 3000)`,
        [invoiceId, customer?.id],
      );
      await sql.query(
        `INSERT INTO instalments (tenant_id, invoice_id, seq, customer_id, due_date, amount_cents, method, status, paid_date)
         VALUES ('demo', $1, 1, $2, '2019-12-20', 1000, 'card', 'paid', '2019-12-20')`,
        [invoiceId, customer?.id],
      );
      const [late] = await sql.query<{ id: string }>(
        `INSERT INTO instalments (tenant_id, invoice_id, seq, customer_id, due_date, amount_cents, method, status)
         VALUES ('demo', $1, 2, $2, '2020-02-10', 2000, 'card', 'pending') RETURNING id`,
        [invoiceId, customer?.id],
      );
      return late?.id ?? '';
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const look = async () => {
    const payments = (
      await me.post('/payments', { datefrom: '20200101', dateto: '20200301', page: '1' })
    ).json<{ payments: Payment[] }>().payments;
    const invoices = (
      await me.post('/invoices', { datefrom: '20191201', dateto: '20191231', page: '1' })
    ).json<{ invoices: { invoice_id: string; state: string; amount: number }[] }>().invoices;
    const detail = (await me.post('/invoice', { invoice_id: invoiceId })).json<{
      invoice: { state: string; payments: { payment_id: string; status: string }[] };
    }>().invoice;
    const balance = await me.get('/balance');
    expect(balance.statusCode).toBe(200);
    return {
      payment: payments.find((p) => p.payment_id === instalmentId),
      invoice: invoices.find((i) => i.invoice_id === invoiceId),
      detail,
      balance: balance.json<Balance>(),
    };
  };

  it('is on time at 23:59 in Madrid on its due day', async () => {
    clock = beforeMidnight;
    const seen = await look();
    expect(seen.payment?.status).toBe('pending');
    expect(seen.invoice).toMatchObject({ state: 'partially_paid', amount: 20 });
    expect(seen.detail.state).toBe('partially_paid');
    expect(seen.detail.payments.map((p) => p.status)).toEqual(['paid', 'pending']);
    // Nothing of the customer's is late in 2020: one "Pagar" pays everything pending, oldest first.
    expect(seen.balance.overdue_count).toBe(0);
    expect(seen.balance.overdue).toBe(0);
    expect(seen.balance.next_due_date).toBe('20200210');
    expect(seen.balance.pay.scope).toBe('pending');
    expect(seen.balance.pay.payment_ids[0]).toBe(instalmentId);
    expect(seen.balance.pay.amount).toBeCloseTo(seen.balance.outstanding, 2);
  });

  it('is overdue from 00:00 in Madrid, while UTC is still on its due day', async () => {
    clock = afterMidnight;
    expect(afterMidnight.toISOString().slice(0, 10)).toBe('2020-02-10');
    const seen = await look();
    expect(seen.payment?.status).toBe('overdue');
    expect(seen.invoice).toMatchObject({ state: 'overdue', amount: 20 });
    expect(seen.detail.state).toBe('overdue');
    expect(seen.detail.payments.map((p) => p.status)).toEqual(['paid', 'overdue']);
    expect(seen.balance).toMatchObject({
      overdue: 20,
      overdue_count: 1,
      pay: { scope: 'overdue', amount: 20, payment_ids: [instalmentId] },
    });
    expect(seen.balance.next_due_date).not.toBe('20200210');
    // The overdue filter of the list agrees with the balance.
    const overdue = (
      await me.post('/payments', {
        datefrom: '20200101',
        dateto: '20200301',
        page: '1',
        overdue: true,
      })
    ).json<{ payments: Payment[] }>().payments;
    expect(overdue.map((p) => p.payment_id)).toEqual([instalmentId]);
  });

  it('pays nothing once nothing is owed, and counts only unpaid instalments', async () => {
    clock = new Date();
    const all: Payment[] = [];
    for (let page = 1; page < 30; page++) {
      const res = await me.post('/payments', {
        datefrom: '20150101',
        dateto: '20991231',
        page: String(page),
      });
      const body = res.json<{ payments: Payment[]; has_more: boolean }>();
      all.push(...body.payments);
      if (!body.has_more) break;
    }
    const unpaid = all.filter((p) => p.status === 'pending' || p.status === 'overdue');
    const late = all.filter((p) => p.status === 'overdue');
    const cents = (list: Payment[]) => list.reduce((s, p) => s + Math.round(p.amount * 100), 0);
    const balance = (await me.get('/balance')).json<Balance>();
    expect(balance.outstanding_count).toBe(unpaid.length);
    expect(Math.round(balance.outstanding * 100)).toBe(cents(unpaid));
    expect(balance.overdue_count).toBe(late.length);
    expect(Math.round(balance.overdue * 100)).toBe(cents(late));
    expect(new Set(balance.pay.payment_ids)).toEqual(new Set(late.map((p) => p.payment_id)));

    // Everything paid: the hero has nothing to ask for.
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE instalments SET status = 'paid', paid_date = due_date
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
      ),
    );
    expect((await me.get('/balance')).json<Balance>()).toEqual({
      outstanding: 0,
      outstanding_count: 0,
      overdue: 0,
      overdue_count: 0,
      next_due_date: null,
      pay: { scope: 'none', amount: 0, payment_ids: [] },
    });
  });

  it('needs a signed-in customer', async () => {
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/balance' });
    expect(res.statusCode).toBe(401);
  });
});
