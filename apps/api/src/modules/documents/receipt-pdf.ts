import type { PdfCustomer, PdfTenant } from '../invoices/pdf.ts';
import { isPdfLanguage, pdfMessages } from '../invoices/pdf-messages.ts';
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
import { pdfFont } from '../../lib/pdf-fonts.ts';

export type ReceiptData = {
  payment_id: string;
  order_id: string;
  authorisation_code: string | null;
  amount_cents: number;
  /** When the payment settled, `yyyymmdd` and `HH:MM` in Madrid. */
  date: string;
  time: string;
  /** Only the masked form Redsys answers (454881******0004), or null when it sent none. */
  card_masked: string | null;
  card_brand: string | null;
  /** How it was paid: the card row only for a card; Bizum and PayPal are named instead. */
  method: 'card' | 'bizum' | 'paypal';
  /** The instalments it paid, each with the return fee charged with it (0 when none). */
  items: {
    invoice_id: string;
    seq: number;
    due_date: string;
    amount_cents: number;
    fee_cents: number;
  }[];
  /** What was given back of the charge (a surplus refunded to the card), 0 when nothing. */
  refunded_cents: number;
};

export type ReceiptPdfInput = {
  receipt: ReceiptData;
  tenant: PdfTenant;
  customer: PdfCustomer;
  language: Language;
  createdAt?: Date;
};

/** The last four digits behind asterisks: never more of the card than its masked form. */
export function cardLabel(masked: string | null, brand: string | null): string {
  const safe = masked && /^[0-9*]{12,19}$/.test(masked) && /\*{4,}/.test(masked) ? masked : null;
  const tail = safe ? `•••• ${safe.slice(-4)}` : '';
  return [brand ?? '', tail].filter(Boolean).join(' ');
}

/** The receipt of a completed card payment: one A4 page with the operation and what it paid. */
export function renderReceiptPdfBytes(input: ReceiptPdfInput): Promise<Uint8Array> {
  if (!isPdfLanguage(input.language)) throw new TypeError('The PDF has no such language');
  const m = documentMessages[input.language];
  const { receipt, tenant } = input;
  const {
    doc,
    y: top,
    color,
    width,
  } = startDocument({
    tenant,
    customer: input.customer,
    language: input.language,
    title: m.receipt,
    lines: [`${m.order}: ${receipt.order_id}`, `${m.paidOn}: ${formatApiDate(receipt.date)}`],
    customerLabel: m.customer,
    createdAt: input.createdAt,
  });
  let y = top;
  const card = cardLabel(receipt.card_masked, receipt.card_brand);
  const rows: [string, string][] = [
    [m.amount, euros(receipt.amount_cents)],
    [m.paidOn, `${formatApiDate(receipt.date)} ${receipt.time}`],
    [m.order, receipt.order_id],
    [m.authorisation, receipt.authorisation_code ?? '—'],
    receipt.method === 'card'
      ? [m.card, card || pdfMessages[input.language].methods.card]
      : [m.method, receipt.method === 'bizum' ? 'Bizum' : 'PayPal'],
  ];
  for (const [label, value] of rows) {
    doc
      .font(pdfFont.regular)
      .fontSize(10)
      .fillColor('#71717a')
      .text(label, left, y, { width: 180 });
    doc
      .font(pdfFont.bold)
      .fontSize(label === m.amount ? 14 : 11)
      .fillColor('#18181b')
      .text(value, left + 190, y - (label === m.amount ? 2 : 0), { width: width - 190 });
    y += label === m.amount ? 24 : 20;
  }

  y += 14;
  doc.font(pdfFont.bold).fontSize(11).fillColor(color).text(m.covered, left, y);
  y += 18;
  doc.rect(left, y, width, 20).fill(color);
  doc.fillColor('#ffffff').font(pdfFont.bold).fontSize(9);
  doc.text(m.invoice, left + 4, y + 6, { width: 200 });
  doc.text(m.instalment, left + 210, y + 6, { width: 80 });
  doc.text(m.dueDate, left + 290, y + 6, { width: 110 });
  doc.text(m.amount, left + width - 104, y + 6, { width: 100, align: 'right' });
  y += 26;
  doc.font(pdfFont.regular).fontSize(9).fillColor('#18181b');
  for (const item of receipt.items) {
    if (y > doc.page.height - 80) {
      doc.addPage();
      y = 48;
    }
    doc.text(item.invoice_id, left + 4, y, { width: 200 });
    doc.text(String(item.seq), left + 210, y, { width: 80 });
    doc.text(formatApiDate(item.due_date), left + 290, y, { width: 110 });
    doc.text(euros(item.amount_cents), left + width - 104, y, { width: 100, align: 'right' });
    y += 16;
    if (item.fee_cents > 0) {
      // The bank's return fee the tenant charged with the instalment (returned debits).
      doc.fillColor('#52525b').text(m.returnFee, left + 210, y, { width: 190 });
      doc.text(euros(item.fee_cents), left + width - 104, y, { width: 100, align: 'right' });
      doc.fillColor('#18181b');
      y += 16;
    }
    doc
      .moveTo(left, y - 4)
      .lineTo(left + width, y - 4)
      .strokeColor('#e4e4e7')
      .lineWidth(0.5)
      .stroke();
  }
  if (receipt.refunded_cents > 0) {
    // A surplus of the charge (instalments another payment had paid) went back to the card.
    y += 6;
    doc.font(pdfFont.regular).fontSize(10).fillColor('#71717a').text(m.refunded, left, y, {
      width: 300,
    });
    doc
      .font(pdfFont.bold)
      .fontSize(10)
      .fillColor('#18181b')
      .text(euros(receipt.refunded_cents), left + width - 104, y, { width: 100, align: 'right' });
  }
  return pdfBytes(finishDocument(doc, tenant, input.language));
}
