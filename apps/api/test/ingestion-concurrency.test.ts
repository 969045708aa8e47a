import { ZIngestCustomer } from '@portal/contract/admin-ingestion';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { prepareInvoices } from '../src/modules/ingestion/prepare-invoices.ts';
import { createIngestionService } from '../src/modules/ingestion/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { holdingCommit } from './lock-waits.ts';

/**
 * Batches that meet (session 33's review; each failed before: a 500, or an invoice or a paid
 * instalment rewritten by a batch that took it for new). Each "batch A" below is the
 * real service code, run through a Database whose transaction is held open after the batch's
 * statements ran and before its COMMIT: exactly the state of a concurrent batch still in flight.
 * "Batch B" is a real `PUT /admin/...` call made meanwhile.
 */

const noReturns = {
  apply: async () => ({ updated: 0, mailIds: [] }),
  sendMails: async () => undefined,
  feesCollected: async () => undefined,
};

const customer = (code: string, email: string) => ({
  code,
  email,
  name: code,
  send_invitation: false,
});

describe.each(engines())('concurrent ingestion batches on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const admin = (path: string, payload: object) =>
    app.inject({
      method: 'PUT',
      url: `/demo/api/1.0/admin${path}`,
      payload,
      headers: { authorization: `Bearer ${key}` },
    });

  /**
   * Waits until some session of this database waits for a lock (batch B blocked on batch A).
   * Batch B parses in a heavy-work process, whose start took over 10 s on a loaded machine (CI
   * beside other work, session 37): a minute before it is called a failure.
   */
  async function someoneWaitsForALock(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const [row] = await db.withOwner((sql) =>
        sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE NOT l.granted AND a.datname = current_database()`,
        ),
      );
      if ((row?.n ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('batch B never waited for batch A');
  }

  it('answers a 4xx, not a 500, to two e-mails that PostgreSQL lower-cases alike (i and İ)', async () => {
    // JavaScript: 'İ'.toLowerCase() is 'i̇' (i + U+0307); PostgreSQL's lower('İ') is 'i'.
    // The batch's duplicate check (JS) sees two addresses, the unique index (lower(email)) one.
    const res = await admin('/customers', {
      customers: [
        customer('REV-U-1', 'ivan@review.test'),
        customer('REV-U-2', '\u0130van@review.test'),
      ],
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });

  it('answers a 4xx, not a 500, to an e-mail that PostgreSQL lower-cases as a stored one', async () => {
    // The same against a stored customer: the seeded cliente@demo.test, written with İ.
    const stored = await admin('/customers', {
      customers: [customer('REV-U-3', 'cl\u0130ente@demo.test')],
    });
    expect(stored.statusCode, stored.body).toBeLessThan(500);
  });

  describe.runIf(engine.name === 'postgres')('two batches at once', { timeout: 120_000 }, () => {
    const invoice = (id: string, customerCode: string, amounts: number[], paid: number[] = []) => {
      const total = amounts.reduce((s, n) => s + n, 0);
      return {
        id,
        customer_code: customerCode,
        invoice_date: '2026-03-01',
        base_cents: total,
        vat_cents: 0,
        total_cents: total,
        lines: [
          { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: total, vat_rate: 0 },
        ],
        instalments: amounts.map((amount_cents, i) => ({
          seq: i + 1,
          due_date: '2099-03-05',
          amount_cents,
          ...(paid.includes(i + 1) ? { status: 'paid', paid_date: '2026-03-05' } : {}),
        })),
      };
    };

    it('answers a 4xx, not a 500, when a concurrent batch took the e-mail first', async () => {
      const a = holdingCommit(db);
      const service = createIngestionService({ db: a.held, returns: noReturns });
      const batchA = service.ingestCustomers('demo', [
        ZIngestCustomer.parse(customer('REV-E-A', 'race@review.test')),
      ]);
      await a.ranStatements;
      const batchB = admin('/customers', {
        customers: [customer('REV-E-B', 'race@review.test')],
      });
      await someoneWaitsForALock();
      a.release();
      await batchA;
      const res = await batchB;
      // Today: 500 internal (PostgreSQL 23505 on customers_email_key reaches the error handler).
      expect(res.statusCode, res.body).toBeLessThan(500);
    });

    it('keeps an invoice whole when two batches create it at once', async () => {
      const created = await admin('/customers', {
        customers: [
          customer('REV-C1', 'rev-c1@review.test'),
          customer('REV-C2', 'rev-c2@review.test'),
        ],
      });
      expect(created.statusCode, created.body).toBe(200);

      // Batch A: REV-F-1 for customer 1, 200 in two instalments of 100; in flight.
      const a = holdingCommit(db);
      const prepared = prepareInvoices({ invoices: [invoice('REV-F-1', 'REV-C1', [100, 100])] });
      if (prepared.kind !== 'valid') throw new Error('batch A does not prepare');
      const batchA = createIngestionService({ db: a.held, returns: noReturns }).ingestInvoices(
        'demo',
        prepared.data,
      );
      await a.ranStatements;
      // Batch B: the same invoice, for customer 2, 300 in one instalment.
      const batchB = admin('/invoices', { invoices: [invoice('REV-F-1', 'REV-C2', [300])] });
      await someoneWaitsForALock();
      a.release();
      expect(await batchA).toEqual({ created: 1, updated: 0, unchanged: 0 });
      const res = await batchB;

      const rows = await db.withOwner((sql) =>
        sql.query<{
          total: string;
          invoice_customer: string;
          seq: number;
          amount: string;
          instalment_customer: string;
        }>(
          `SELECT v.total_cents::text AS total, vc.code AS invoice_customer, e.seq,
                  e.amount_cents::text AS amount, ec.code AS instalment_customer
             FROM invoices v
             JOIN customers vc ON vc.tenant_id = v.tenant_id AND vc.id = v.customer_id
             JOIN instalments e ON e.tenant_id = v.tenant_id AND e.invoice_id = v.id
             JOIN customers ec ON ec.tenant_id = e.tenant_id AND ec.id = e.customer_id
            WHERE v.tenant_id = 'demo' AND v.id = 'REV-F-1' ORDER BY e.seq`,
        ),
      );
      const state = {
        status: res.statusCode,
        answer: res.json<unknown>(),
        total: Number(rows[0]?.total),
        invoiceCustomer: rows[0]?.invoice_customer,
        instalments: rows.map((r) => [r.seq, Number(r.amount), r.instalment_customer]),
      };
      // Whichever batch wins, the invoice must be one batch's invoice: its instalments add up to
      // its total and belong to its customer. Today: B answers 200 {created: 1}, the header is
      // B's (REV-C2, 300) and the instalments A's (two of 100, for REV-C1).
      const sum = rows.reduce((s, r) => s + Number(r.amount), 0);
      expect(
        { sum, customers: [...new Set(rows.map((r) => r.instalment_customer))] },
        JSON.stringify(state),
      ).toEqual({
        sum: state.total,
        customers: [state.invoiceCustomer],
      });
    });

    it('keeps a paid instalment with its amount and customer when a concurrent batch creates its invoice', async () => {
      const customers = await admin('/customers', {
        customers: [
          customer('REV-C1', 'rev-c1@review.test'),
          customer('REV-C2', 'rev-c2@review.test'),
        ],
      });
      expect(customers.statusCode, customers.body).toBe(200);
      // REV-F-0 is stored already: batch B then runs its update of stored instalments.
      const stored = await admin('/invoices', { invoices: [invoice('REV-F-0', 'REV-C2', [50])] });
      expect(stored.statusCode, stored.body).toBe(200);
      // Batch A: REV-F-2 for customer 1, its first instalment paid (100); in flight.
      const a = holdingCommit(db);
      const prepared = prepareInvoices({
        invoices: [invoice('REV-F-2', 'REV-C1', [100, 100], [1])],
      });
      if (prepared.kind !== 'valid') throw new Error('batch A does not prepare');
      const batchA = createIngestionService({ db: a.held, returns: noReturns }).ingestInvoices(
        'demo',
        prepared.data,
      );
      await a.ranStatements;
      // Batch B: REV-F-0 as it is, and REV-F-2 for customer 2 with its first instalment at 300.
      const batchB = admin('/invoices', {
        invoices: [invoice('REV-F-0', 'REV-C2', [50]), invoice('REV-F-2', 'REV-C2', [300])],
      });
      await someoneWaitsForALock();
      a.release();
      await batchA;
      const res = await batchB;
      const [paid] = await db.withOwner((sql) =>
        sql.query<{ amount: string; status: string; code: string }>(
          `SELECT e.amount_cents::text AS amount, e.status, c.code
             FROM instalments e JOIN customers c ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
            WHERE e.tenant_id = 'demo' AND e.invoice_id = 'REV-F-2' AND e.seq = 1`,
        ),
      );
      // A batch run after A would be refused (instalment_locked on amount and customer_code).
      // Today: B answers 200 and the paid instalment is now 300, for customer 2.
      expect(
        { status: paid?.status, amount: Number(paid?.amount), customer: paid?.code },
        `B answered ${res.statusCode} ${res.body}`,
      ).toEqual({ status: 'paid', amount: 100, customer: 'REV-C1' });
    });
  });
});
