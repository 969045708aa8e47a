import type { PdfCustomer, PdfTenant } from '../invoices/pdf.ts';
import { isPdfLanguage } from '../invoices/pdf-messages.ts';
import type { Language } from '../mail/messages.ts';
import { documentMessages } from './messages.ts';
import {
  euros,
  finishDocument,
  formatApiDate,
  left,
  pdfBytes,
  startDocument,
} from './pdf-frame.ts';
import { kindLabel, type Statement } from './statement.ts';
import { pdfFont } from '../../lib/pdf-fonts.ts';

export type StatementPdfInput = {
  statement: Statement;
  tenant: PdfTenant;
  customer: PdfCustomer;
  language: Language;
  /** Today, `yyyymmdd` (Madrid). */
  todayApi: string;
  createdAt?: Date;
};

/** The statement of a period: opening balance, the movements with the running balance, totals. */
export function renderStatementPdfBytes(input: StatementPdfInput): Promise<Uint8Array> {
  if (!isPdfLanguage(input.language)) throw new TypeError('The PDF has no such language');
  const m = documentMessages[input.language];
  const { statement: s, tenant } = input;
  const {
    doc,
    y: top,
    color,
    width,
  } = startDocument({
    tenant,
    customer: input.customer,
    language: input.language,
    title: m.statement,
    lines: [
      `${m.period}: ${formatApiDate(s.from)} – ${formatApiDate(s.to)}`,
      `${m.generated} ${formatApiDate(input.todayApi)}`,
    ],
    customerLabel: m.customer,
    createdAt: input.createdAt,
  });
  let y = top;
  // Totals first: what the customer looks for.
  const totals: [string, number, boolean][] = [
    [m.opening, s.opening_cents, false],
    [m.invoiced, s.invoiced_cents, false],
    [m.paid, -s.paid_cents, false],
    [m.closing, s.closing_cents, true],
  ];
  for (const [label, cents, strong] of totals) {
    doc
      .font(strong ? pdfFont.bold : pdfFont.regular)
      .fontSize(strong ? 12 : 10)
      .fillColor('#18181b');
    doc.text(label, left, y, { width: 240 });
    doc.text(euros(cents), left + 240, y, { width: 120, align: 'right' });
    y += strong ? 20 : 16;
  }
  y += 12;

  // Fixed columns for dates, kinds, references and amounts; the method takes what is left.
  const amountWidth = 68;
  const cols = {
    date: { x: left, w: 58 },
    kind: { x: left + 58, w: 52 },
    reference: { x: left + 110, w: 88 },
    detail: { x: left + 198, w: width - 198 - 3 * amountWidth },
    charge: { x: left + width - 3 * amountWidth, w: amountWidth },
    credit: { x: left + width - 2 * amountWidth, w: amountWidth },
    balance: { x: left + width - amountWidth, w: amountWidth },
  };
  const header = (at: number) => {
    doc.rect(left, at, width, 20).fill(color);
    doc.fillColor('#ffffff').font(pdfFont.bold).fontSize(8);
    doc.text(m.date, cols.date.x + 4, at + 6, { width: cols.date.w - 8 });
    doc.text(m.kind, cols.kind.x + 4, at + 6, { width: cols.kind.w - 8 });
    doc.text(m.reference, cols.reference.x + 4, at + 6, { width: cols.reference.w - 8 });
    doc.text(m.detail, cols.detail.x + 4, at + 6, { width: cols.detail.w - 8 });
    for (const [key, label] of [
      ['charge', m.charge],
      ['credit', m.credit],
      ['balance', m.balance],
    ] as const) {
      doc.text(label, cols[key].x + 4, at + 6, { width: cols[key].w - 8, align: 'right' });
    }
    return at + 24;
  };
  y = header(y);
  doc.font(pdfFont.regular).fontSize(8).fillColor('#18181b');
  if (s.rows.length === 0) {
    doc.text(m.nothing, left + 4, y, { width: width - 8 });
    y += 16;
  }
  for (const r of s.rows) {
    if (y > doc.page.height - 90) {
      doc.addPage();
      y = header(48);
      doc.font(pdfFont.regular).fontSize(8).fillColor('#18181b');
    }
    doc.text(formatApiDate(r.date), cols.date.x + 4, y, { width: cols.date.w - 8 });
    doc.text(kindLabel(r.kind, m), cols.kind.x + 4, y, {
      width: cols.kind.w - 8,
    });
    doc.text(r.reference, cols.reference.x + 4, y, {
      width: cols.reference.w - 8,
      lineBreak: false,
      ellipsis: true,
    });
    doc.text(r.method, cols.detail.x + 4, y, {
      width: cols.detail.w - 8,
      lineBreak: false,
      ellipsis: true,
    });
    if (r.charge_cents)
      doc.text(euros(r.charge_cents), cols.charge.x + 4, y, {
        width: cols.charge.w - 8,
        align: 'right',
      });
    if (r.credit_cents)
      doc.text(euros(r.credit_cents), cols.credit.x + 4, y, {
        width: cols.credit.w - 8,
        align: 'right',
      });
    doc.text(euros(r.balance_cents), cols.balance.x + 4, y, {
      width: cols.balance.w - 8,
      align: 'right',
    });
    y += 14;
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .strokeColor('#e4e4e7')
      .lineWidth(0.5)
      .stroke();
  }
  y += 10;
  if (y > doc.page.height - 90) {
    doc.addPage();
    y = 48;
  }
  doc.font(pdfFont.regular).fontSize(8).fillColor('#71717a').text(m.note, left, y, { width });
  return pdfBytes(finishDocument(doc, tenant, input.language));
}
