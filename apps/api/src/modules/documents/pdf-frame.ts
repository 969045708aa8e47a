import {
  drawIssuer,
  newPdfDocument,
  pdfLeft,
  type PdfCustomer,
  type PdfTenant,
} from '../invoices/pdf.ts';
import { pdfMessages } from '../invoices/pdf-messages.ts';
import type { Language } from '../mail/messages.ts';
import { pdfFont } from '../../lib/pdf-fonts.ts';

/** es-ES formats whatever the language, as the invoice PDF (Spanish number and date formats). */
export const money = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });
/** Zero is 0,00 €, never -0,00 € (a total negated for a column, with nothing in it). */
export const euros = (cents: number): string => money.format(cents === 0 ? 0 : cents / 100);
export const formatApiDate = (api: string | null): string =>
  api && /^\d{8}$/.test(api) ? `${api.slice(6, 8)}/${api.slice(4, 6)}/${api.slice(0, 4)}` : '';

export const left = pdfLeft;

/**
 * A document of the invoice PDF's look: the tenant's colour band, logo and legal identity on the
 * left, the title and `lines` on the right, then the customer's box. Answers the document and the
 * height where the body starts.
 */
export function startDocument(input: {
  tenant: PdfTenant;
  customer: PdfCustomer;
  language: Language;
  title: string;
  lines: string[];
  customerLabel: string;
  createdAt?: Date | undefined;
}): { doc: PDFKit.PDFDocument; y: number; color: string; width: number } {
  const { tenant, customer } = input;
  const m = pdfMessages[input.language];
  const color = `#${tenant.primary_color.replace(/^#/, '')}`;
  const doc = newPdfDocument(input.title, tenant, input.createdAt);
  const width = doc.page.width - 96;
  const afterIssuer = drawIssuer(doc, tenant, { color, nifLabel: m.nif, width: 280 });

  doc.font(pdfFont.bold).fontSize(16).fillColor(color);
  doc.text(input.title, left + 280, 34, { width: width - 280, align: 'right' });
  doc.font(pdfFont.regular).fontSize(10).fillColor('#18181b');
  for (const line of input.lines) doc.text(line, { width: width - 280, align: 'right' });

  let y = Math.max(doc.y, afterIssuer, 110) + 16;
  doc.roundedRect(left, y, width, 72, 6).fillAndStroke('#f4f4f5', '#e4e4e7');
  doc
    .fillColor('#71717a')
    .font(pdfFont.bold)
    .fontSize(8)
    .text(input.customerLabel.toUpperCase(), left + 12, y + 10);
  doc
    .fillColor('#18181b')
    .font(pdfFont.bold)
    .fontSize(11)
    .text(customer.name, left + 12, y + 22, { width: width - 24 });
  doc.font(pdfFont.regular).fontSize(9).fillColor('#3f3f46');
  const customerLines = [
    customer.nif ? `${m.nif}: ${customer.nif}` : '',
    [customer.address, customer.postal_code, customer.city].filter(Boolean).join(' · '),
    customer.email,
  ].filter(Boolean);
  doc.text(customerLines.join('\n'), left + 12, y + 37, { width: width - 24 });
  y += 90;
  return { doc, y, color, width };
}

/** The footer of every page (the issuer, the contact, the page number), then the end. */
export function finishDocument(
  doc: PDFKit.PDFDocument,
  tenant: PdfTenant,
  language: Language,
): PDFKit.PDFDocument {
  const m = pdfMessages[language];
  const width = doc.page.width - 96;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    const footer = [
      tenant.legal_name || tenant.company_name,
      tenant.contact_email ? `${m.contact}: ${tenant.contact_email}` : '',
      `${m.page} ${i + 1}/${range.count}`,
    ]
      .filter(Boolean)
      .join(' · ');
    doc.font(pdfFont.regular).fontSize(8).fillColor('#71717a');
    doc.text(footer, left, doc.page.height - 36, { width, align: 'center', lineBreak: false });
  }
  doc.end();
  return doc;
}

/** The whole document as bytes (what a worker thread sends back). */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
}
