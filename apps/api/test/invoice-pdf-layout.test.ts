import type { TInvoicePayment } from '@portal/contract';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdfBytes, type PdfInput } from '../src/modules/invoices/pdf.ts';
import { samplePdfInput, samplePdfLine } from './sample-pdf-parties.ts';

/*
 * Review of the invoice PDF's layout (apps/api/src/modules/invoices/pdf.ts): text drawn at fixed
 * offsets, whatever the height the text before it took, so long (but ordinary) data of a Spanish
 * club or school lands on top of other text, and instalment rows past the bottom of a page make
 * pdfkit open one new page per cell.
 */

type Run = { page: number; str: string; x: number; y: number; w: number; size: number };

/** Every run of text the PDF draws, with its page, baseline and width (pdfjs, PDF units). */
async function runs(bytes: Uint8Array): Promise<{ pages: number; runs: Run[] }> {
  const doc = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const out: Run[] = [];
  for (let page = 1; page <= doc.numPages; page++) {
    const content = await (await doc.getPage(page)).getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , size, x, y] = item.transform as number[];
      out.push({ page, str: item.str, x: x ?? 0, y: y ?? 0, w: item.width, size: size ?? 0 });
    }
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, runs: out };
}

/** Pairs of runs whose ink boxes cross on the same page (glyph box: 0.2 em below the baseline, 0.8 above). */
function overlaps(all: Run[]): [string, string][] {
  const found: [string, string][] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i] as Run;
      const b = all[j] as Run;
      if (a.page !== b.page) continue;
      const xs = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const ys =
        Math.min(a.y + 0.8 * a.size, b.y + 0.8 * b.size) -
        Math.max(a.y - 0.2 * a.size, b.y - 0.2 * b.size);
      if (xs > 1 && ys > 1) found.push([a.str, b.str]);
    }
  return found;
}

function input(): PdfInput {
  return samplePdfInput({
    lines: [samplePdfLine()],
    payments: [
      {
        payment_id: 'p1',
        duedate: '20990305',
        method: 'Tarjeta',
        method_kind: 'card',
        import: 12.1,
        paiddate: null,
        state: 'pending',
        status: 'pending',
      },
    ],
  });
}

describe('the invoice PDF keeps every text in its place', () => {
  it('a customer name on two lines does not print over the NIF, nor a long address over the lines table', async () => {
    const pdf = input();
    // A real Spanish name with both family names in full (the portal takes up to 120 characters).
    pdf.customer.name =
      'María de los Ángeles Fernández-Villaverde de la Concepción y Rodríguez-Castellanos de Borbón';
    pdf.customer.address =
      'Avenida de la Constitución Española de 1978, número 245, bloque 3, escalera izquierda, piso 12, puerta D, urbanización Los Pinos del Mediterráneo, parcela 17';
    const { runs: all } = await runs(await renderInvoicePdfBytes(pdf));
    expect(overlaps(all)).toEqual([]);
    // The box (86 pt high whatever it holds) must hold all of it: with a short customer its last
    // line sits ~40 pt above the table's heading; it may not come nearer than the box's margins.
    const email = all.find((r) => r.str.includes('cliente@demo.test'));
    const heading = all.find((r) => r.str === 'Concepto');
    expect((email?.y ?? 0) - (heading?.y ?? 0)).toBeGreaterThan(30);
  });

  it('a long issuer identity (legal name, address) does not run into the customer box', async () => {
    const pdf = input();
    pdf.tenant.legal_name =
      'Asociación Deportiva y Cultural del Club de Natación Sincronizada de Sant Cugat del Vallès';
    // Most tenants have a logo: the identity then has 56 + 12 pt less width.
    pdf.tenant.logo_mime = 'image/svg+xml';
    pdf.tenant.logo_data = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#0a7a55"/></svg>',
    );
    pdf.tenant.legal_address =
      'Carrer de la Rambla del Celler, número 123, escalera B, 4º 2ª, Polígono Industrial Can Sant Joan, nave 14, 08174 Sant Cugat del Vallès, Barcelona';
    const { runs: all } = await runs(await renderInvoicePdfBytes(pdf));
    expect(overlaps(all)).toEqual([]);
    const email = all.find((r) => r.str.includes('secretaria@demo.test') && r.page === 1);
    const customer = all.find((r) => r.str === 'CLIENTE');
    // PDF y grows upwards: the issuer's last line must be above the customer box's label.
    expect((email?.y ?? 0) - (customer?.y ?? 0)).toBeGreaterThan(12);
  });

  it('a provider method name on two lines does not print over the next instalment', async () => {
    const pdf = input();
    const base = pdf.invoice.payments[0] as TInvoicePayment;
    pdf.invoice.payments = [
      {
        ...base,
        payment_id: 'p1',
        method: 'Financiación externa a través de entidad colaboradora (12 meses)',
        method_kind: 'other',
        import: 6.05,
      },
      { ...base, payment_id: 'p2', duedate: '20990405', import: 6.05 },
    ];
    const { runs: all } = await runs(await renderInvoicePdfBytes(pdf));
    expect(overlaps(all)).toEqual([]);
  });

  it('70 instalments continue on the next pages row by row, under their headings', async () => {
    const pdf = input();
    const base = pdf.invoice.payments[0] as TInvoicePayment;
    // A monthly school fee over several years, or a gym's weekly direct debits.
    pdf.invoice.payments = Array.from({ length: 70 }, (_, i) => ({
      ...base,
      payment_id: `p${i}`,
      duedate: `2099${String((i % 12) + 1).padStart(2, '0')}05`,
      import: 1,
    }));
    const { pages, runs: all } = await runs(await renderInvoicePdfBytes(pdf));
    // 70 rows of 15 pt fit in two pages; on the current code every cell past the bottom of the
    // first page opens a page of its own (more than a hundred pages, one word each).
    expect(pages).toBeLessThanOrEqual(3);
    // Every row: its date, method, amount and state on one line of one page.
    const dates = all.filter((r) => /^\d{2}\/\d{2}\/2099$/.test(r.str));
    expect(dates).toHaveLength(70);
    for (const date of dates) {
      const row = all.filter((r) => r.page === date.page && Math.abs(r.y - date.y) < 1);
      expect(row.map((r) => r.str)).toEqual([
        '05/' + date.str.slice(3),
        'Tarjeta',
        '1,00 €',
        'Pendiente',
      ]);
    }
    // Each page with instalments says what its columns are.
    for (const page of new Set(dates.map((d) => d.page)))
      expect(all.some((r) => r.page === page && r.str === 'FORMA DE PAGO')).toBe(true);
  });
});
