import type { TInvoiceDetail } from '@portal/contract';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { Language } from '../mail/messages.ts';
import { isPdfLanguage, pdfMessages } from './pdf-messages.ts';
import { pdfFont, usePdfFonts } from '../../lib/pdf-fonts.ts';

export type PdfTenant = {
  company_name: string;
  legal_name: string;
  legal_nif: string;
  legal_address: string;
  contact_email: string;
  primary_color: string;
  logo_mime: string | null;
  logo_data: Uint8Array | null;
};

export type PdfCustomer = {
  name: string;
  nif: string;
  address: string;
  postal_code: string;
  city: string;
  province: string;
  country: string;
  email: string;
};

/** es-ES formats whatever the language (the issue asks for Spanish number and date formats). */
const money = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });
const formatDate = (api: string | null): string =>
  api && /^\d{8}$/.test(api) ? `${api.slice(6, 8)}/${api.slice(4, 6)}/${api.slice(0, 4)}` : '';
/** Made once: building an Intl.NumberFormat per call was a third of a 500-line invoice's PDF. */
const quantityFormat = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 3 });
const formatQuantity = (n: number): string => quantityFormat.format(n);

/**
 * The invoice as a one-page (or longer) A4 PDF drawn with pdfkit: the tenant's logo and colour,
 * both parties' fiscal data, the lines, VAT, totals and the instalments with their state, in the
 * portal's embedded fonts (lib/pdf-fonts.ts), which print every Latin, Greek or Cyrillic name.
 */
export type PdfInput = {
  invoice: TInvoiceDetail;
  tenant: PdfTenant;
  customer: PdfCustomer;
  language: Language;
  todayApi: string;
  /** The document's creation date (now by default); fixed, the output is the same bytes. */
  createdAt?: Date;
};

/** The left margin of every PDF of the portal. */
export const pdfLeft = 48;

/** An A4 document of the portal's PDFs: pages kept for the footer, the tenant as the author. */
export function newPdfDocument(
  title: string,
  tenant: PdfTenant,
  createdAt?: Date | undefined,
): PDFKit.PDFDocument {
  return usePdfFonts(
    new PDFDocument({
      size: 'A4',
      bufferPages: true,
      margin: 48,
      info: {
        Title: title,
        Author: tenant.legal_name || tenant.company_name,
        ...(createdAt ? { CreationDate: createdAt } : {}),
      },
    }),
  );
}

/**
 * The tenant's logo (SVG or a raster image) in a `size` square at the top left; answers the width
 * it takes with its gap (0 without a logo, or when it cannot be drawn: the PDF goes out without it).
 */
/**
 * What an `<image href>` of an SVG logo may name: an image embedded in the logo itself (a PNG or
 * JPEG data URL). Anything else is drawn as nothing: by default svg-to-pdfkit handed the href to
 * pdfkit, which read it as a path, so a logo put any image of the server's disk into every
 * customer's PDFs, and one naming a pipe or a device never finished (session 39).
 */
function embeddedImageOnly(href: string): string {
  const link = href.replace(/\s+/g, '');
  return /^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/]+=*$/.test(link) ? link : '';
}

export function drawLogo(
  doc: PDFKit.PDFDocument,
  logo: { logo_mime: string | null; logo_data: Uint8Array | null },
  size: number,
): number {
  if (!logo.logo_data || !logo.logo_mime) return 0;
  try {
    if (logo.logo_mime === 'image/svg+xml') {
      SVGtoPDF(doc, Buffer.from(logo.logo_data).toString('utf8'), pdfLeft, 32, {
        width: size,
        height: size,
        imageCallback: embeddedImageOnly,
        // Its default writes each refused image and unknown element to the console: a line for
        // every PDF of such a logo, in a log that says nothing an operator can act on.
        warningCallback: () => {},
      });
    } else {
      doc.image(Buffer.from(logo.logo_data), pdfLeft, 32, { fit: [size, size] });
    }
    return size + 12;
  } catch {
    return 0;
  }
}

/**
 * The top of every PDF of the portal (invoice, receipt, statement, mandate): the tenant's colour
 * band, its logo and its legal identity in a column `width` wide on the left. Answers the height
 * below the identity.
 */
export function drawIssuer(
  doc: PDFKit.PDFDocument,
  tenant: PdfTenant,
  { color, nifLabel, width }: { color: string; nifLabel: string; width: number },
): number {
  doc.rect(0, 0, doc.page.width, 8).fill(color);
  const logoWidth = drawLogo(doc, tenant, 56);
  doc.fillColor('#18181b').font(pdfFont.bold).fontSize(14);
  doc.text(tenant.legal_name || tenant.company_name, pdfLeft + logoWidth, 34, {
    width: width - logoWidth,
  });
  doc.font(pdfFont.regular).fontSize(9).fillColor('#3f3f46');
  if (tenant.legal_nif) doc.text(`${nifLabel}: ${tenant.legal_nif}`, { width: width - logoWidth });
  if (tenant.legal_address) doc.text(tenant.legal_address, { width: width - logoWidth });
  if (tenant.contact_email) doc.text(tenant.contact_email, { width: width - logoWidth });
  return doc.y;
}

/** Cents of an amount in euros, half away from zero. */
const cents = (euros: number) => Math.sign(euros) * Math.round(Math.abs(euros) * 100);

/**
 * The base and VAT of each rate of the lines (RD 1619/2012 art. 6: the tax broken down by rate),
 * when the lines carry more than one rate and their VAT, rate by rate in cents, adds up to the
 * provider's to the cent; else one base and one VAT, the provider's (`rate` null): the PDF never
 * prints figures that disagree with the invoice's own.
 */
function vatBreakdown(
  invoice: TInvoiceDetail,
): { rate: number | null; base: number; vat: number }[] {
  const single = [{ rate: null, base: invoice.base, vat: invoice.iva }];
  const bases = new Map<number, number>();
  for (const line of invoice.lines)
    bases.set(line.iva, (bases.get(line.iva) ?? 0) + cents(line.amount));
  if (bases.size < 2) return single;
  const rates = [...bases]
    .sort(([a], [b]) => b - a)
    .map(([rate, base]) => ({ rate, base, vat: cents((base * rate) / 10_000) }));
  const sum = (key: 'base' | 'vat') => rates.reduce((total, r) => total + r[key], 0);
  if (sum('vat') !== cents(invoice.iva) || sum('base') !== cents(invoice.base)) return single;
  return rates.map((r) => ({ rate: r.rate, base: r.base / 100, vat: r.vat / 100 }));
}

export function renderInvoicePdf(input: PdfInput): PDFKit.PDFDocument {
  const { invoice, tenant, customer, todayApi } = input;
  if (!isPdfLanguage(input.language)) throw new TypeError('The PDF has no such language');
  const m = pdfMessages[input.language];
  const color = `#${tenant.primary_color.replace(/^#/, '')}`;
  // A credit note says it is one (a rectifying invoice, RD 1619/2012 art. 15), as the web's badge.
  const title = invoice.state === 'credit_note' ? m.creditNote : m.invoice;
  const doc = newPdfDocument(`${title} ${invoice.invoice_id}`, tenant, input.createdAt);
  const left = pdfLeft;
  const width = doc.page.width - 96;

  // Header: the colour band, the logo, then the issuer's fiscal identity.
  const issuerEnd = drawIssuer(doc, tenant, { color, nifLabel: m.nif, width: 300 });

  doc.font(pdfFont.bold).fontSize(20).fillColor(color);
  doc.text(title, left + 300, 34, { width: width - 300, align: 'right' });
  doc.font(pdfFont.regular).fontSize(10).fillColor('#18181b');
  doc.text(`${m.number}: ${invoice.invoice_id}`, left + 300, doc.y + 2, {
    width: width - 300,
    align: 'right',
  });
  doc.text(`${m.date}: ${formatDate(invoice.invoice_date)}`, {
    width: width - 300,
    align: 'right',
  });
  if (invoice.status === 2) {
    doc
      .font(pdfFont.bold)
      .fillColor('#b91c1c')
      .text(m.cancelledInvoice, { width: width - 300, align: 'right' });
  }

  // Customer: below the issuer's identity and the invoice's number, as tall as what it holds (a
  // long name or address ran over the NIF and out of the box before session 38).
  let y = Math.max(doc.y, issuerEnd, 110) + 16;
  const customerLines = [
    customer.nif ? `${m.nif}: ${customer.nif}` : '',
    customer.address,
    [customer.postal_code, customer.city, customer.province].filter(Boolean).join(' · '),
    [customer.country, customer.email].filter(Boolean).join(' · '),
  ].filter(Boolean);
  const nameHeight = doc
    .font(pdfFont.bold)
    .fontSize(11)
    .heightOfString(customer.name, { width: width - 24 });
  const detailsHeight = doc
    .font(pdfFont.regular)
    .fontSize(9)
    .heightOfString(customerLines.join('\n'), { width: width - 24 });
  const boxHeight = Math.max(86, 22 + nameHeight + 3 + detailsHeight + 12);
  doc.roundedRect(left, y, width, boxHeight, 6).fillAndStroke('#f4f4f5', '#e4e4e7');
  doc
    .fillColor('#71717a')
    .font(pdfFont.bold)
    .fontSize(8)
    .text(m.customer.toUpperCase(), left + 12, y + 10);
  doc
    .fillColor('#18181b')
    .font(pdfFont.bold)
    .fontSize(11)
    .text(customer.name, left + 12, y + 22, { width: width - 24 });
  doc.font(pdfFont.regular).fontSize(9).fillColor('#3f3f46');
  doc.text(customerLines.join('\n'), left + 12, y + 22 + nameHeight + 3, { width: width - 24 });
  y += boxHeight + 18;

  // Lines.
  const concept = { label: m.concept, x: left, w: width - 300, align: 'left' as const };
  const quantity = { label: m.quantity, x: left + width - 300, w: 50, align: 'right' as const };
  const price = { label: m.unitPrice, x: left + width - 245, w: 80, align: 'right' as const };
  const vat = { label: m.vat, x: left + width - 160, w: 50, align: 'right' as const };
  const amount = { label: m.amount, x: left + width - 100, w: 100, align: 'right' as const };
  const cols = [concept, quantity, price, vat, amount];
  const header = (top: number) => {
    doc.rect(left, top, width, 20).fill(color);
    doc.fillColor('#ffffff').font(pdfFont.bold).fontSize(9);
    for (const c of cols) doc.text(c.label, c.x + 4, top + 6, { width: c.w - 8, align: c.align });
    return top + 24;
  };
  y = header(y);
  doc.font(pdfFont.regular).fontSize(9).fillColor('#18181b');
  for (const line of invoice.lines) {
    const description = [line.concept, [line.person, line.quota].filter(Boolean).join(' · ')]
      .filter(Boolean)
      .join('\n');
    const height = Math.max(doc.heightOfString(description, { width: concept.w - 8 }), 12) + 8;
    if (y + height > doc.page.height - 140) {
      doc.addPage();
      y = header(48);
      doc.font(pdfFont.regular).fontSize(9).fillColor('#18181b');
    }
    doc.text(description, concept.x + 4, y, { width: concept.w - 8 });
    doc.text(formatQuantity(line.quantity), quantity.x + 4, y, {
      width: quantity.w - 8,
      align: 'right',
    });
    doc.text(money.format(line.unit_price), price.x + 4, y, {
      width: price.w - 8,
      align: 'right',
    });
    doc.text(`${formatQuantity(line.iva)} %`, vat.x + 4, y, {
      width: vat.w - 8,
      align: 'right',
    });
    doc.text(money.format(line.amount), amount.x + 4, y, { width: amount.w - 8, align: 'right' });
    y += height;
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .strokeColor('#e4e4e7')
      .lineWidth(0.5)
      .stroke();
  }

  // Totals.
  y += 8;
  const totals: [string, number, boolean][] = [
    ...vatBreakdown(invoice).flatMap(({ rate, base, vat }): [string, number, boolean][] =>
      rate === null
        ? [
            [m.base, base, false],
            [m.vatAmount, vat, false],
          ]
        : [
            [`${m.base} ${formatQuantity(rate)} %`, base, false],
            [`${m.vatAmount} ${formatQuantity(rate)} %`, vat, false],
          ],
    ),
    [m.total, invoice.total, true],
  ];
  // The bank's fees of returned debits the tenant charges are owed too (what "Pagar" asks).
  const fees = invoice.to_pay - invoice.pending;
  if (fees > 0.0049 && invoice.status !== 2) totals.push([m.returnFees, fees, false]);
  if (invoice.to_pay > 0 && invoice.status !== 2) totals.push([m.pending, invoice.to_pay, true]);
  for (const [label, value, strong] of totals) {
    doc
      .font(strong ? pdfFont.bold : pdfFont.regular)
      .fontSize(strong ? 11 : 10)
      .fillColor('#18181b');
    doc.text(label, left + width - 300, y, { width: 190, align: 'right' });
    doc.text(money.format(value), left + width - 100, y, { width: 96, align: 'right' });
    y += strong ? 18 : 15;
  }

  // Instalments.
  if (invoice.payments.length > 0) {
    y += 14;
    if (y > doc.page.height - 160) {
      doc.addPage();
      y = 48;
    }
    doc.font(pdfFont.bold).fontSize(11).fillColor(color).text(m.instalments, left, y);
    y += 18;
    const headings = (top: number) => {
      doc.font(pdfFont.bold).fontSize(8).fillColor('#71717a');
      doc.text(m.dueDate.toUpperCase(), left, top, { width: 100 });
      doc.text(m.method.toUpperCase(), left + 100, top, { width: 170 });
      doc.text(m.amount.toUpperCase(), left + 270, top, { width: 90, align: 'right' });
      doc.text(m.state.toUpperCase(), left + 380, top, { width: width - 380 });
      doc.font(pdfFont.regular).fontSize(9).fillColor('#18181b');
      return top + 14;
    };
    y = headings(y);
    for (const p of invoice.payments) {
      const state =
        p.state === 'paid'
          ? `${m.paid} ${formatDate(p.paiddate)}`
          : p.state === 'cancelled'
            ? m.cancelled
            : p.state === 'returned'
              ? m.returned
              : p.duedate < todayApi
                ? m.overdue
                : m.pendingState;
      const method = p.method_kind === 'other' ? p.method : m.methods[p.method_kind];
      const fee = p.returned?.fee_charged ? p.returned.fee : 0;
      const stateText = fee > 0 ? `${state} (+${money.format(fee)})` : state;
      // Each row as tall as its tallest cell, on a page of its own with the headings again when
      // it does not fit (before session 38 a long method ran over the next row, and instalments
      // past the page's end each drew a cell per page).
      const rowHeight =
        Math.max(
          doc.heightOfString(method, { width: 170 }),
          doc.heightOfString(stateText, { width: width - 380 }),
          12,
        ) + 3;
      if (y + rowHeight > doc.page.height - 60) {
        doc.addPage();
        y = headings(48);
      }
      doc.text(formatDate(p.duedate), left, y, { width: 100 });
      doc.text(method, left + 100, y, { width: 170 });
      doc.text(money.format(p.import), left + 270, y, { width: 90, align: 'right' });
      doc.text(stateText, left + 380, y, { width: width - 380 });
      y += rowHeight;
    }
  }

  // Footer on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits inside the bottom margin: lift the margin so pdfkit does not add a page.
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

/** The whole document as bytes: what a worker thread of the heavy-work pool sends back. */
export function renderInvoicePdfBytes(input: PdfInput): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const doc = renderInvoicePdf(input);
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
