import type { FastifyInstance } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const today = isoToApi(todayIso());
const fiveYearsAgo = `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`;
const range = { datefrom: fiveYearsAgo, dateto: today };

type Item = {
  invoice_id: string;
  invoice_date: string;
  status: number;
  amount: number;
  total: number;
};

describe.each(engines())('invoices and payments on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let foreignInvoice: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    const res = await other.post('/invoices', { ...range, page: '1' });
    foreignInvoice = res.json<{ invoices: Item[] }>().invoices[0]?.invoice_id ?? '';
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const allPages = async (body: object, path = '/invoices', key = 'invoices') => {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; page < 20; page++) {
      const res = await me.post(path, { ...body, page: String(page) });
      expect(res.statusCode).toBe(200);
      const json = res.json<Record<string, unknown> & { has_more: boolean }>();
      items.push(...(json[key] as Record<string, unknown>[]));
      if (!json.has_more) break;
    }
    return items;
  };

  describe('POST /invoices', () => {
    it('pages 20 at a time, newest first, over five years of invoices', async () => {
      const first = await me.post('/invoices', { ...range, page: '1' });
      const body = first.json<{ invoices: Item[]; has_more: boolean }>();
      expect(body.invoices).toHaveLength(20);
      expect(body.has_more).toBe(true);
      const all = (await allPages(range)) as Item[];
      expect(all.length).toBeGreaterThanOrEqual(59);
      const dates = all.map((i) => i.invoice_date);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(new Set(all.map((i) => i.invoice_id)).size).toBe(all.length);
      expect(all.some((i) => i.invoice_id === foreignInvoice)).toBe(false);
    });

    it('answers an empty page beyond the end', async () => {
      const res = await me.post('/invoices', { ...range, page: '99' });
      expect(res.json()).toEqual({ invoices: [], has_more: false });
    });

    it('filters paid and pending invoices, with the amount still owed', async () => {
      const paid = (await allPages({ ...range, paid: true })) as Item[];
      const pending = (await allPages({ ...range, pending: true })) as Item[];
      expect(paid.length).toBeGreaterThan(40);
      expect(paid.every((i) => i.status === 1 && i.amount === 0)).toBe(true);
      expect(pending.length).toBeGreaterThanOrEqual(3);
      expect(pending.every((i) => i.status === 0 && i.amount > 0 && i.amount <= i.total)).toBe(
        true,
      );
      // The partially paid invoice owes less than its total.
      expect(pending.some((i) => i.amount < i.total)).toBe(true);
      // Both boxes: paid or pending, so every invoice but the cancelled ones (session 36).
      const both = await allPages({ ...range, paid: true, pending: true });
      const all = await allPages(range);
      expect(all.some((i) => i.state === 'cancelled')).toBe(true);
      expect(both.map((i) => i.invoice_id)).toEqual(
        all.filter((i) => i.state !== 'cancelled').map((i) => i.invoice_id),
      );
    });

    it.each([
      [{ ...range, datefrom: '20250230', page: '1' }, { datefrom: ['invalid_date'] }],
      [{ datefrom: today, dateto: fiveYearsAgo, page: '1' }, { dateto: ['invalid_range'] }],
      [{ ...range, page: '0' }, { page: ['too_small'] }],
      [{ ...range, page: 'abc' }, { page: ['invalid_format'] }],
      [{ ...range, page: '1', paid: 'yes' }, { paid: ['invalid_type'] }],
      [{ page: '1' }, { datefrom: ['invalid_date'], dateto: ['invalid_date'] }],
    ])('answers 422 with field errors to %j', async (body, errors) => {
      const res = await me.post('/invoices', body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors });
    });

    it('needs a signed-in customer', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/invoices',
        payload: { ...range, page: '1' },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /invoices/summary', () => {
    it('counts pending invoices and the pending amount of a range', async () => {
      const all = (await allPages({ ...range, pending: true })) as Item[];
      const res = await me.post('/invoices/summary', range);
      expect(res.statusCode).toBe(200);
      const { summary } = res.json<{
        summary: { total_invoices: number; total_pending: number };
      }>();
      expect(summary.total_invoices).toBe(all.length);
      expect(summary.total_pending).toBeCloseTo(
        all.reduce((s, i) => s + i.amount, 0),
        2,
      );
    });

    it('answers zero for a range with nothing', async () => {
      const res = await me.post('/invoices/summary', { datefrom: '19990101', dateto: '19991231' });
      expect(res.json()).toEqual({ summary: { total_invoices: 0, total_pending: 0 } });
    });
  });

  describe('POST /invoice and /invoices/related', () => {
    it('answers the detail: lines, VAT, total and instalments that add up', async () => {
      const [latest] = (await me.post('/invoices', { ...range, page: '1' })).json<{
        invoices: Item[];
      }>().invoices;
      const res = await me.post('/invoice', { invoice_id: latest?.invoice_id });
      expect(res.statusCode).toBe(200);
      const { invoice } = res.json<{
        invoice: {
          total: number;
          base: number;
          iva: number;
          customer_name: string;
          lines: { quantity: number; unit_price: number }[];
          payments: { import: number }[];
        };
      }>();
      expect(invoice.customer_name).toBe('Laura García Martín');
      expect(invoice.base + invoice.iva).toBeCloseTo(invoice.total, 2);
      expect(invoice.lines.reduce((s, l) => s + l.quantity * l.unit_price, 0)).toBeCloseTo(
        invoice.base,
        2,
      );
      expect(invoice.payments.reduce((s, p) => s + p.import, 0)).toBeCloseTo(invoice.total, 2);
    });

    it("answers 404 for another customer's invoice and for one that does not exist", async () => {
      for (const id of [foreignInvoice, 'F1900-00000']) {
        const res = await me.post('/invoice', { invoice_id: id });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Invoice not found', code: 'not_found' });
        expect((await me.post('/invoices/related', { invoice_id: id })).statusCode).toBe(404);
        expect((await me.post('/invoice/pdf', { invoice_id: id })).statusCode).toBe(404);
      }
    });

    it('links each invoice to the previous and next by date', async () => {
      const page = (await me.post('/invoices', { ...range, page: '1' })).json<{
        invoices: Item[];
      }>().invoices;
      const [newest, second, third] = page;
      const middle = (
        await me.post('/invoices/related', { invoice_id: second?.invoice_id })
      ).json();
      expect(middle).toEqual({
        previous_invoice_id: third?.invoice_id,
        next_invoice_id: newest?.invoice_id,
      });
      const top = (await me.post('/invoices/related', { invoice_id: newest?.invoice_id })).json();
      expect(top).toEqual({ previous_invoice_id: second?.invoice_id, next_invoice_id: null });
    });
  });

  describe('POST /payments', () => {
    type P = {
      payment_id: string;
      due_date: string;
      status: string;
      amount: number;
      paid_date?: string;
    };
    it('pages the instalments by due date with their state', async () => {
      const all = (await allPages(
        { ...range, dateto: '20991231' },
        '/payments',
        'payments',
      )) as P[];
      expect(all.length).toBeGreaterThan(60);
      const dates = all.map((p) => p.due_date);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(all.filter((p) => p.status === 'paid').every((p) => p.paid_date)).toBe(true);
      expect(
        all.filter((p) => p.status === 'overdue').every((p) => p.due_date < today && !p.paid_date),
      ).toBe(true);
      expect(new Set(all.map((p) => p.status))).toEqual(
        new Set(['paid', 'overdue', 'pending', 'cancelled']),
      );
    });

    it('filters only pending or only overdue, and orders ascending on request', async () => {
      const overdue = (await allPages({ ...range, overdue: true }, '/payments', 'payments')) as P[];
      expect(overdue.length).toBeGreaterThanOrEqual(2);
      expect(overdue.every((p) => p.status === 'overdue')).toBe(true);
      const pending = (await allPages(
        { ...range, dateto: '20991231', pending: true },
        '/payments',
        'payments',
      )) as P[];
      expect(pending.length).toBeGreaterThanOrEqual(1);
      expect(pending.every((p) => p.status === 'pending')).toBe(true);
      const asc = (await me.post('/payments', { ...range, page: '1', order: 'asc' })).json<{
        payments: P[];
      }>().payments;
      expect(asc.map((p) => p.due_date)).toEqual(asc.map((p) => p.due_date).sort());
    });
  });

  describe('POST /invoice/pdf', () => {
    it('answers a short-lived link to a PDF with the invoice number, total and customer', async () => {
      const [latest] = (await me.post('/invoices', { ...range, page: '1' })).json<{
        invoices: Item[];
      }>().invoices;
      const res = await me.post('/invoice/pdf', { invoice_id: latest?.invoice_id });
      expect(res.statusCode).toBe(200);
      const { url } = res.json<{ url: string }>();
      expect(url).toMatch(/^\/demo\/api\/1\.0\/invoice\/pdf\/[\w-]+\.[\w-]+$/);
      // The link works without the bearer header (a new tab), only on its tenant.
      const pdf = await app.inject({ method: 'GET', url });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
      const { text, total: pages } = await parser.getText();
      await parser.destroy();
      expect(pages).toBe(1);
      const total = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(
        latest?.total ?? 0,
      );
      expect(text).toContain(latest?.invoice_id);
      expect(text.replace(/\s/g, '')).toContain(total.replace(/\s/g, ''));
      expect(text).toContain('Laura García Martín');
      expect(text).toContain('Demo Fitness S.L.');
      expect(text).toContain('FACTURA');
      expect(
        (await app.inject({ method: 'GET', url: url.replace('/demo/', '/1/') })).statusCode,
      ).toBe(404);
      expect((await app.inject({ method: 'GET', url: `${url}x` })).statusCode).toBe(404);
    });

    it('answers 503 with Retry-After, at once, to PDFs beyond the worker queue', async () => {
      // One thread and one waiting place: while the thread starts, the first PDF holds it and
      // the second waits; the others are refused rather than queued without bound.
      const busy = await buildTestApp(db, { WORKER_THREADS: '1', WORKER_QUEUE: '1' });
      try {
        const customer = await signedIn(busy, 'demo');
        const [latest] = (await customer.post('/invoices', { ...range, page: '1' })).json<{
          invoices: Item[];
        }>().invoices;
        const { url } = (
          await customer.post('/invoice/pdf', { invoice_id: latest?.invoice_id })
        ).json<{ url: string }>();
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => busy.inject({ method: 'GET', url })),
        );
        const statuses = answers.map((a) => a.statusCode);
        expect(statuses).toContain(200);
        expect(statuses).toContain(503);
        expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
        for (const refused of answers.filter((a) => a.statusCode === 503)) {
          expect(refused.headers['retry-after']).toBe('2');
          expect(refused.json()).toEqual({
            message: 'Too much heavy work at once, retry shortly',
            code: 'service_unavailable',
          });
        }
        // The line frees up: the same link works again.
        expect((await busy.inject({ method: 'GET', url })).statusCode).toBe(200);
      } finally {
        await busy.close();
      }
    });

    it("writes the PDF in the customer's chosen language", async () => {
      const [latest] = (await me.post('/invoices', { ...range, page: '1' })).json<{
        invoices: Item[];
      }>().invoices;
      const { url } = (
        await me.post('/invoice/pdf', { invoice_id: latest?.invoice_id, language: 'en' })
      ).json<{ url: string }>();
      const pdf = await app.inject({ method: 'GET', url });
      const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
      const { text } = await parser.getText();
      await parser.destroy();
      expect(text).toContain('INVOICE');
      expect(text).toContain('Taxable base');
    });
  });
});
