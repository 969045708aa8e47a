import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { createNotification, decodeMerchantParameters, PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { csvCell, buildStatement, statementCsv } from '../src/modules/documents/statement.ts';
import { documentMessages } from '../src/modules/documents/messages.ts';
import { buildTestApp, engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { notificationParams } from './redsys-notification.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';

const today = isoToApi(todayIso());
const range = { datefrom: '20000101', dateto: '20991231' };
type Payment = { payment_id: string; invoice_id: string; amount: number; status: string };
type Session = Awaited<ReturnType<typeof signedIn>>;

const textOf = pdfText;

describe.each(engines())('receipts, statements and invoice archives on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Session;
  let other: Session;
  let otherTenant: Session;
  let paid: { paymentId: string; order: string; invoices: string[]; instalmentId: string };

  const get = (url: string) => app.inject({ method: 'GET', url });
  const notify = (message: object) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(message as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  /** Pays one unpaid instalment of `who` by card (the gateway authorises, code 123456). */
  async function payOne(who: Session) {
    const unpaid = (
      await who.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{ payments: Payment[] }>().payments;
    const first = unpaid[0];
    if (!first) throw new Error('no unpaid instalment');
    const init = await who.post('/redsys/init-payment', {
      amount: first.amount,
      payment_ids: [first.payment_id],
    });
    expect(init.statusCode).toBe(200);
    const body = init.json<{
      payment_id: string;
      redsys_params: { Ds_MerchantParameters: string };
    }>();
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters);
    const note = createNotification({
      version: 'HMAC_SHA256_V1',
      secret: PUBLIC_TEST_MERCHANT.secretKey,
      params: notificationParams(p, '0000', {
        Ds_Card_Number: '454881******0004',
        Ds_Card_Brand: '1',
      }),
    });
    expect((await notify(note)).statusCode).toBe(200);
    return {
      paymentId: body.payment_id,
      order: p.Ds_Merchant_Order ?? '',
      invoices: [first.invoice_id],
      instalmentId: first.payment_id,
    };
  }

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    otherTenant = await signedIn(app, '1');
    paid = await payOne(me);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  describe('receipts', () => {
    it('lists the completed payment and draws its receipt: operation, authorisation, masked card, invoices', async () => {
      const list = await me.get('/documents/receipts');
      expect(list.statusCode).toBe(200);
      const receipts = list.json<{ receipts: { payment_id: string; order_id: string }[] }>()
        .receipts;
      expect(receipts.map((r) => r.payment_id)).toContain(paid.paymentId);
      const mine = (await other.get('/documents/receipts')).json<{
        receipts: { payment_id: string }[];
      }>().receipts;
      expect(mine.map((r) => r.payment_id)).not.toContain(paid.paymentId);

      const link = await me.post('/documents/receipt', { payment_id: paid.paymentId });
      expect(link.statusCode).toBe(200);
      const { url } = link.json<{ url: string }>();
      expect(url).toMatch(/^\/demo\/api\/1\.0\/documents\/receipt\/[\w-]+\.[\w-]+$/);
      const pdf = await get(url);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['cache-control']).toBe('private, no-store');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await textOf(pdf.rawPayload);
      expect(text).toContain('JUSTIFICANTE DE PAGO');
      expect(text).toContain(paid.order);
      expect(text).toContain('123456');
      expect(text).toContain('VISA •••• 0004');
      expect(text).not.toContain('454881');
      expect(text).toContain(paid.invoices[0]);
      expect(text).toContain('Demo Fitness S.L.');

      const english = await me.post('/documents/receipt', {
        payment_id: paid.paymentId,
        language: 'en',
      });
      expect(await textOf((await get(english.json<{ url: string }>().url)).rawPayload)).toContain(
        'PAYMENT RECEIPT',
      );
    });

    it("names the receipt on the paid instalment's row of Mis pagos, and none where paid elsewhere", async () => {
      type Row = { payment_id: string; status: string; receipt_id?: string };
      const rowsOf = async (who: Session) => {
        const rows: Row[] = [];
        for (let page = 1; page < 50; page++) {
          const res = await who.post('/payments', { ...range, page: String(page) });
          expect(res.statusCode, res.body).toBe(200);
          const body = res.json<{ payments: Row[]; has_more: boolean }>();
          rows.push(...body.payments);
          if (!body.has_more) break;
        }
        return rows;
      };
      const rows = await rowsOf(me);
      expect(rows.find((r) => r.payment_id === paid.instalmentId)).toMatchObject({
        status: 'paid',
        receipt_id: paid.paymentId,
      });
      // The seed's instalments paid by direct debit or at the desk have no receipt here.
      const elsewhere = rows.filter(
        (r) => r.status === 'paid' && r.payment_id !== paid.instalmentId,
      );
      expect(elsewhere.length).toBeGreaterThan(0);
      expect(elsewhere.filter((r) => r.receipt_id !== undefined)).toEqual([]);
      expect(rows.filter((r) => r.status !== 'paid' && r.receipt_id !== undefined)).toEqual([]);
      expect((await rowsOf(other)).map((r) => r.receipt_id).filter(Boolean)).toEqual([]);
    });

    it('is linked from the receipt e-mail through the portal, never by a link that opens it alone', async () => {
      const mail = await smtp.waitFor('cliente@demo.test', 10_000, undefined, paid.order);
      // Soft line breaks joined and `=3D` read back as `=` only: a full decode would read the
      // `=09` of an id starting with 09 as a tab.
      const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(text).toContain(`/documentos?recibo=${paid.paymentId}`);
      expect(text).not.toContain('/documents/receipt/');
    });

    it("is a 404 for another customer's payment, another tenant's, a pending one and junk", async () => {
      expect(
        (await other.post('/documents/receipt', { payment_id: paid.paymentId })).statusCode,
      ).toBe(404);
      expect(
        (await otherTenant.post('/documents/receipt', { payment_id: paid.paymentId })).statusCode,
      ).toBe(404);
      expect((await me.post('/documents/receipt', { payment_id: 'not-a-uuid' })).statusCode).toBe(
        404,
      );
      const { url } = (await me.post('/documents/receipt', { payment_id: paid.paymentId })).json<{
        url: string;
      }>();
      // The link of one tenant is nothing on another's path; a changed token is nothing.
      expect((await get(url.replace('/demo/', '/1/'))).statusCode).toBe(404);
      expect((await get(`${url}x`)).statusCode).toBe(404);
    });
  });

  describe('statements', () => {
    it('adds up: opening + invoices − payments = closing, and the next period opens where it closed', async () => {
      const year = Number(today.slice(0, 4));
      const first = { datefrom: `${year - 2}0101`, dateto: `${year - 1}1231` };
      const second = { datefrom: `${year}0101`, dateto: today };
      const csvOf = async (period: object) => {
        const link = await me.post('/documents/statement', { ...period, format: 'csv' });
        expect(link.statusCode).toBe(200);
        const res = await get(link.json<{ url: string }>().url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        return res.body;
      };
      const amount = (cell: string | undefined) =>
        Math.round(Number((cell ?? '').replace(',', '.')) * 100);
      const parse = (csv: string) => {
        expect(csv.startsWith('\uFEFF')).toBe(true);
        const rows = csv
          .slice(1)
          .trimEnd()
          .split('\r\n')
          .map((l) => l.split(';'));
        const body = rows.slice(2, -1);
        return {
          opening: amount(rows[1]?.[6]),
          closing: amount(rows.at(-1)?.[6]),
          charges: body.reduce((s, r) => s + (r[4] ? amount(r[4]) : 0), 0),
          credits: body.reduce((s, r) => s + (r[5] ? amount(r[5]) : 0), 0),
          rows: body.length,
        };
      };
      const a = parse(await csvOf(first));
      const b = parse(await csvOf(second));
      expect(a.rows).toBeGreaterThan(0);
      expect(a.charges).toBeGreaterThan(0);
      expect(a.opening + a.charges - a.credits).toBe(a.closing);
      expect(b.opening + b.charges - b.credits).toBe(b.closing);
      expect(b.opening).toBe(a.closing);
      // The card payment of today is in this year's statement.
      expect(b.credits).toBeGreaterThan(0);

      // Against the database: everything invoiced (not cancelled) less everything paid, to today.
      const whole = parse(await csvOf({ datefrom: `${year - 4}0101`, dateto: today }));
      const [truth] = await db.withTenant('demo', (sql) =>
        sql.query<{ invoiced: string; paid: string }>(
          `SELECT (SELECT coalesce(sum(total_cents), 0) FROM invoices i JOIN customers c
                     ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
                    WHERE c.email = 'cliente@demo.test' AND NOT i.cancelled)::text AS invoiced,
                  (SELECT coalesce(sum(e.amount_cents), 0) FROM instalments e
                     JOIN invoices i ON i.tenant_id = e.tenant_id AND i.id = e.invoice_id AND NOT i.cancelled
                     JOIN customers c ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
                    WHERE c.email = 'cliente@demo.test' AND e.status = 'paid')::text AS paid`,
        ),
      );
      expect(whole.opening).toBe(0);
      expect(whole.closing).toBe(Number(truth?.invoiced) - Number(truth?.paid));
    });

    it('draws the statement PDF with its closing balance', async () => {
      const link = await me.post('/documents/statement', {
        ...range,
        datefrom: '20200101',
        dateto: '20241231',
        format: 'pdf',
      });
      expect(link.statusCode).toBe(200);
      const pdf = await get(link.json<{ url: string }>().url);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await textOf(pdf.rawPayload);
      expect(text).toContain('EXTRACTO DE CUENTA');
      expect(text).toContain('Saldo final');
      expect(text).toContain('01/01/2020');
    });

    it('refuses bad dates, a reversed period, more than five years and an unknown format', async () => {
      const bad = async (body: object) => {
        const res = await me.post('/documents/statement', body);
        expect(res.statusCode).toBe(422);
        return res.json<{ code: string; errors: Record<string, string[]> }>();
      };
      expect(
        (await bad({ datefrom: '20250230', dateto: '20250301', format: 'pdf' })).errors.datefrom,
      ).toEqual(['invalid_date']);
      expect(
        (await bad({ datefrom: '20250301', dateto: '20250101', format: 'pdf' })).errors.dateto,
      ).toEqual(['invalid_range']);
      expect(
        (await bad({ datefrom: '20190101', dateto: '20240102', format: 'csv' })).errors.dateto,
      ).toEqual(['too_big']);
      expect((await bad({ datefrom: '20240101', dateto: '20240102', format: 'xls' })).code).toBe(
        'validation_failed',
      );
      expect(
        (
          await me.post('/documents/statement', {
            datefrom: '20190101',
            dateto: '20240101',
            format: 'csv',
          })
        ).statusCode,
      ).toBe(200);
    });

    it('writes CSV Excel reads safely: formulas neutralised, separators quoted', () => {
      expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
      expect(csvCell('+34 600')).toBe("'+34 600");
      expect(csvCell('-1')).toBe("'-1");
      expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
      expect(csvCell('a;b')).toBe('"a;b"');
      expect(csvCell('línea\nnueva')).toBe('"línea\nnueva"');
      expect(csvCell('F2026-001')).toBe('F2026-001');
      const csv = statementCsv(
        buildStatement({
          from: '20260101',
          to: '20260131',
          opening_cents: -250,
          movements: [
            {
              date: '20260105',
              kind: 'payment',
              reference: '=cmd|x',
              method: '@Tarjeta',
              charge_cents: 0,
              credit_cents: 1000,
            },
            {
              date: '20260105',
              kind: 'invoice',
              reference: 'F-1',
              method: '',
              charge_cents: 12345,
              credit_cents: 0,
            },
          ],
        }),
        documentMessages.es,
      );
      const lines = csv.slice(1).split('\r\n');
      expect(lines[0]).toBe('Fecha;Tipo;Referencia;Concepto;Cargo;Abono;Saldo');
      expect(lines[1]).toBe('01/01/2026;Saldo inicial;;;;;-2,50');
      // The invoice comes before the payment of the same day; the balance runs.
      expect(lines[2]).toBe('05/01/2026;Factura;F-1;;123,45;;120,95');
      expect(lines[3]).toBe("05/01/2026;Pago;'=cmd|x;'@Tarjeta;;10,00;110,95");
      expect(lines[4]).toBe('31/01/2026;Saldo final;;;;;110,95');
    });
  });

  describe('invoice archives', () => {
    const invoicesOf = async (who: Session) =>
      (await who.post('/invoices', { ...range, page: '1' })).json<{
        invoices: { invoice_id: string; invoice_date: string }[];
      }>().invoices;

    it('zips a selection: one PDF per invoice, named by its id', async () => {
      const [a, b] = await invoicesOf(me);
      const link = await me.post('/documents/invoices-zip', {
        invoice_ids: [a?.invoice_id, b?.invoice_id],
      });
      expect(link.statusCode).toBe(200);
      const { url, count } = link.json<{ url: string; count: number }>();
      expect(count).toBe(2);
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      const files = unzipSync(new Uint8Array(res.rawPayload));
      const names = Object.keys(files).sort();
      expect(names).toEqual([`${a?.invoice_id}.pdf`, `${b?.invoice_id}.pdf`].sort());
      for (const name of names) {
        const bytes = files[name] ?? new Uint8Array();
        expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
        expect(await textOf(bytes)).toContain(name.replace(/\.pdf$/, ''));
      }
      // The selection is signed: another id in the query is refused.
      const swapped = url.replace(/id=[^&]+$/, `id=${encodeURIComponent('F-other')}`);
      expect((await get(swapped)).statusCode).toBe(404);
    });

    it('zips a period and refuses more than 200 invoices, foreign ones and no choice', async () => {
      const invoices = await invoicesOf(me);
      const day = invoices[0]?.invoice_date ?? today;
      const link = await me.post('/documents/invoices-zip', { datefrom: day, dateto: day });
      expect(link.statusCode).toBe(200);
      const { url, count } = link.json<{ url: string; count: number }>();
      const files = unzipSync(new Uint8Array((await get(url)).rawPayload));
      expect(Object.keys(files)).toHaveLength(count);

      const many = Array.from({ length: 201 }, (_, i) => `F-${i}`);
      const over = await me.post('/documents/invoices-zip', { invoice_ids: many });
      expect(over.statusCode).toBe(422);
      expect(over.json()).toMatchObject({ errors: { invoice_ids: ['too_big'] } });

      const [foreign] = await invoicesOf(other);
      expect(
        (
          await me.post('/documents/invoices-zip', {
            invoice_ids: [invoices[0]?.invoice_id, foreign?.invoice_id],
          })
        ).statusCode,
      ).toBe(404);
      expect((await me.post('/documents/invoices-zip', {})).statusCode).toBe(422);
      expect((await me.post('/documents/invoices-zip', { datefrom: '20240101' })).statusCode).toBe(
        422,
      );
      const empty = await me.post('/documents/invoices-zip', {
        datefrom: '19900101',
        dateto: '19901231',
      });
      expect(empty.json()).toMatchObject({ errors: { dateto: ['no_invoices'] } });
    });

    it('refuses a period of more than 200 invoices with too_big', async () => {
      // 205 invoices of one day for the second customer: more than an archive holds.
      const [customer] = await db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>(`SELECT id FROM customers WHERE email = $1`, [secondEmail]),
      );
      await db.withTenant('demo', async (sql) => {
        for (let i = 0; i < 205; i++) {
          await sql.query(
            `INSERT INTO invoices (tenant_id, id, customer_id, invoice_date, base_cents, vat_cents, total_cents)
             VALUES ('demo', $1, $2, '2010-06-01', 100, 21, 121)`,
            [`ZIP-${i}`, customer?.id],
          );
        }
      });
      const res = await other.post('/documents/invoices-zip', {
        datefrom: '20100101',
        dateto: '20101231',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: { dateto: ['too_big'] } });
    });
  });
});
