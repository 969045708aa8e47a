/**
 * Also (session 38, last tests): an instalment the provider sends already due, and methods that
 * may be a direct debit in words the portal does not know.
 *
 * Session 37 review (account lifecycle, auto-pay), fixed since (migration 040): an invoice the provider moves to another customer on or
 * after its due date is charged to the new customer's saved card at once, with no auto-pay notice
 * ever sent to them.
 *
 * The notice ("we will charge your card on ...", `auto_pay_notice_days` before) is only sent for
 * instalments due strictly after today (auto-pay/repository.ts `noticeCandidates`:
 * `e.due_date > $1::date`), while a charge needs no notice at all (`dueCharges`: due on or before
 * today, `e.due_date >= a.since`, and nothing about `auto_pay_notices`). So when the provider moves
 * an invoice (allowed while its instalments are pending: ingestion/batch-checks.ts) to a customer
 * whose auto-pay is on, on its due date or once it is overdue, the next sweep charges that
 * customer's card with no notice: SECURITY.md promises "when the provider moves an invoice to
 * another customer after its notice went out, the new customer gets their own notice before
 * their card pays it", and decision 033 that arrears are never charged unannounced ("Instalments
 * already overdue when auto-pay is turned on are not charged"). Money leaves the new customer's
 * card for a debt that was someone else's until that day, without a word beforehand.
 *
 * Right behaviour: the card of the customer an invoice moved to pays it only after that customer
 * had their own notice (the tenant's notice days before the charge), or an instalment that was
 * already due when it became theirs is left for them to pay by hand, like arrears at opt-in.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import type { Mail, Mailer } from '../src/modules/mail/mailer.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const quiet = { warn: () => {}, error: () => {} };
const day = 24 * 60 * 60 * 1000;
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T12:00:00Z`) + days * day).toISOString().slice(0, 10);
const noon = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe.each(engines())(
  'auto-pay of an invoice moved to another customer on or after its due date, on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let other: Awaited<ReturnType<typeof signedIn>>;
    let apiKey: string;
    const mails: Mail[] = [];
    const mailer: Mailer = {
      send: async (mail) => {
        mails.push(mail);
      },
    };
    const today = todayIso();

    const putInvoice = (id: string, customerCode: string, dueDate: string, method = 'Tarjeta') =>
      app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/invoices',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: {
          invoices: [
            {
              id,
              customer_code: customerCode,
              invoice_date: addDays(dueDate, -5),
              base_cents: 4200,
              vat_cents: 0,
              total_cents: 4200,
              lines: [
                { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 4200, vat_rate: 0 },
              ],
              instalments: [{ seq: 1, due_date: dueDate, amount_cents: 4200, method }],
            },
          ],
        },
      });
    const instalmentOf = async (invoiceId: string) =>
      (
        await db.withOwner((sql) =>
          sql.query<{ id: string }>(
            `SELECT id::text FROM instalments WHERE tenant_id = 'demo' AND invoice_id = $1`,
            [invoiceId],
          ),
        )
      )[0]?.id ?? '';
    const charger = () =>
      createAutoPayCharger({
        db,
        payments: createPaymentService({
          db,
          secretBox: createSecretBox(randomBytes(32)),
          simulatorUrl: 'http://127.0.0.1:9',
          notificationBaseUrl: 'http://127.0.0.1:9',
          onPaid: async () => {},
          log: quiet,
        }),
        send: async () => {
          throw new Error('no charge is sent in this test');
        },
        mail: createAutoPayMailer(db, mailer),
        declineMails: createDeclineMailSender({
          db,
          mail: createAutoPayMailer(db, mailer),
          log: quiet,
        }),
        log: quiet,
      });
    /** The customer turned auto-pay on `days` days from today (negative: ago). */
    const autoPayOnSince = (customerId: string, days: number) =>
      db.withOwner((sql) =>
        sql.query(
          `UPDATE auto_pay_cards SET since = $2::date WHERE tenant_id = 'demo' AND customer_id = $1`,
          [customerId, addDays(today, days)],
        ),
      );
    const noticeAddress = async (customerId: string) =>
      (
        await db.withOwner((sql) =>
          sql.query<{ email: string }>(
            `SELECT coalesce(nullif(invoice_email, ''), email) AS email FROM customers
            WHERE tenant_id = 'demo' AND id = $1`,
            [customerId],
          ),
        )
      )[0]?.email ?? '';
    const cardOf = async (who: typeof me) =>
      (await who.get('/payment-methods'))
        .json<{ methods: { id: string; kind: string }[] }>()
        .methods.find((m) => m.kind === 'card')?.id ?? '';

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
      me = await signedIn(app, 'demo');
      other = await signedIn(app, 'demo', secondEmail);
      apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
      const cards = [await cardOf(me), await cardOf(other)];
      expect(cards.every(Boolean)).toBe(true);
      await db.withOwner(async (sql) => {
        await sql.query(
          `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 3 WHERE id = 'demo'`,
        );
        // Nothing else due by card: every other unpaid instalment is a direct debit.
        await sql.query(
          `UPDATE instalments SET method = 'Domiciliación bancaria'
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
        );
        await sql.query(
          `UPDATE payment_methods
            SET redsys_reference = coalesce(redsys_reference, 'review-' || id::text),
                redsys_cof_txnid = coalesce(redsys_cof_txnid, '123456789012345'),
                card_expiry = '1299', status = 'active', deleted_at = NULL
          WHERE tenant_id = 'demo' AND id = ANY($1::uuid[])`,
          [cards],
        );
      });
      for (const [who, card] of [
        [me, cards[0]],
        [other, cards[1]],
      ] as const) {
        const on = await app.inject({
          method: 'PUT',
          url: `/demo/api/1.0/payment-methods/${card}/auto-pay`,
          headers: { authorization: `Bearer ${who.token}` },
          payload: { enabled: true },
        });
        expect(on.statusCode, on.body).toBe(200);
      }
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    it('does not charge the new owner on the due date, when only the old owner was told', async () => {
      const invoiceId = 'REVIEW-AP-MOVED-ON-DUE-DAY';
      const dueDate = addDays(today, 2);
      expect((await putInvoice(invoiceId, me.user.code, dueDate)).statusCode).toBe(200);
      const run = charger();
      // Two days before: the first owner is told their card pays it on the due date.
      expect(await run.sendNotices('demo', today)).toBe(1);
      expect(mails.map((m) => m.to)).toEqual([await noticeAddress(me.user.id)]);

      // On the due date the provider moves the invoice (still pending): allowed.
      const moved = await putInvoice(invoiceId, other.user.code, dueDate);
      expect(moved.statusCode, moved.body).toBe(200);
      mails.length = 0;

      // That day's sweep.
      const instalment = await instalmentOf(invoiceId);
      const jobs: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        jobs.push(job);
      }, noon(dueDate));
      // No notice ever reached the new owner (notices go only to instalments due after today).
      expect(mails.map((m) => m.to)).not.toContain(await noticeAddress(other.user.id));
      expect(
        jobs.filter((j) => j.instalmentId === instalment),
        "the new owner's card is charged the day the invoice became theirs, unannounced",
      ).toEqual([]);
    });

    it("does not charge arrears moved into a customer's account, unannounced", async () => {
      // The new owner turned auto-pay on a month ago.
      await autoPayOnSince(other.user.id, -30);
      // An instalment of the first customer, overdue for 10 days (their auto-pay, on since today,
      // rightly leaves it alone: arrears are not charged).
      const invoiceId = 'REVIEW-AP-MOVED-OVERDUE';
      expect((await putInvoice(invoiceId, me.user.code, addDays(today, -10))).statusCode).toBe(200);
      const instalment = await instalmentOf(invoiceId);
      const run = charger();
      const before: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        before.push(job);
      }, noon(today));
      expect(before.filter((j) => j.instalmentId === instalment)).toEqual([]);

      // The provider moves it to the other customer (pending: allowed).
      const moved = await putInvoice(invoiceId, other.user.code, addDays(today, -10));
      expect(moved.statusCode, moved.body).toBe(200);
      mails.length = 0;
      const jobs: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        jobs.push(job);
      }, noon(today));
      expect(
        jobs.filter((j) => j.instalmentId === instalment),
        "arrears moved into the account charged to the new owner's card at once",
      ).toEqual([]);
    });

    it('does not charge, unannounced, an instalment that arrived already due (session 38)', async () => {
      // The customer turned auto-pay on a month ago.
      await autoPayOnSince(me.user.id, -30);
      // Today the provider sends an invoice whose instalment fell due five days ago: no notice
      // can go out for it (notices go to instalments due after today).
      const invoiceId = 'REVIEW3-AP-LATE-INVOICE';
      expect((await putInvoice(invoiceId, me.user.code, addDays(today, -5))).statusCode).toBe(200);
      const instalment = await instalmentOf(invoiceId);
      const run = charger();
      expect(await run.sendNotices('demo', today)).toBe(0);
      const jobs: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        jobs.push(job);
      }, noon(today));
      expect(
        jobs.filter((j) => j.instalmentId === instalment),
        'arrears of a new invoice are charged to the card unannounced',
      ).toEqual([]);
    });

    it.each([
      ['Rebut domiciliat', 'REVIEW3-AP-REBUT-DOMICILIAT'],
      // A wording the portal does not know may be a direct debit too: the card leaves it alone.
      ['Giro bancario', 'REVIEW3-AP-GIRO'],
    ])(
      'leaves a %j instalment to the bank: the card does not pay it too (session 38)',
      async (method, invoiceId) => {
        // Without notices, so that only the method keeps the card from paying it.
        await db.withOwner((sql) =>
          sql.query(`UPDATE tenants SET auto_pay_notice_days = 0 WHERE id = 'demo'`),
        );
        try {
          const dueDate = addDays(today, 2);
          const put = await putInvoice(invoiceId, me.user.code, dueDate, method);
          expect(put.statusCode, put.body).toBe(200);
          const instalment = await instalmentOf(invoiceId);
          const jobs: AutoPayJob[] = [];
          await charger().sweep(async (job) => {
            jobs.push(job);
          }, noon(dueDate));
          expect(
            jobs.filter((j) => j.instalmentId === instalment),
            'a direct debit charged to the card as well',
          ).toEqual([]);
          // The same invoice paid by card is charged: the method alone made the difference.
          const byCard = await putInvoice(`${invoiceId}-CARD`, me.user.code, dueDate);
          expect(byCard.statusCode, byCard.body).toBe(200);
          const cardInstalment = await instalmentOf(`${invoiceId}-CARD`);
          const cardJobs: AutoPayJob[] = [];
          await charger().sweep(async (job) => {
            cardJobs.push(job);
          }, noon(dueDate));
          expect(cardJobs.map((j) => j.instalmentId)).toContain(cardInstalment);
        } finally {
          await db.withOwner((sql) =>
            sql.query(`UPDATE tenants SET auto_pay_notice_days = 3 WHERE id = 'demo'`),
          );
        }
      },
    );
  },
);
