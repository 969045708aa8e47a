import type { TSepaMandateStatus } from '@portal/contract/sepa-mandates';
import PDFDocument from 'pdfkit';
import { drawLogo } from '../invoices/pdf.ts';
import type { Language } from '../mail/messages.ts';
import { mandatePdfMessages } from './pdf-messages.ts';
import { pdfFont, usePdfFonts } from '../../lib/pdf-fonts.ts';

/** What the mandate PDF shows: plain data, it crosses to a worker thread by structured clone. */
export type MandatePdfInput = {
  mandate: {
    reference: string;
    status: TSepaMandateStatus;
    creditor_id: string;
    creditor_name: string;
    creditor_address: string;
    debtor_name: string;
    debtor_nif: string;
    /** Grouped in fours. */
    iban: string;
    signed_at: Date;
    signer_ip: string;
    replaces_reference: string | null;
    replaced_by_reference: string | null;
  };
  brand: {
    primary_color: string;
    logo_mime: string | null;
    logo_data: Uint8Array | null;
  };
  language: Language;
  /** The document's creation date (now by default); fixed, the output is the same bytes. */
  createdAt?: Date;
};

/** Spanish time, the way the portal shows dates, with the zone said. */
const formatSignedAt = (at: Date): string =>
  `${new Intl.DateTimeFormat('es-ES', {
    timeZone: 'Europe/Madrid',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(at)} (${at.toISOString()})`;

const statusColour: Record<TSepaMandateStatus, string> = {
  active: '#15803d',
  replaced: '#b45309',
  revoked: '#b91c1c',
};

/**
 * The SEPA Core mandate as a one-page A4 PDF (pdfkit, standard fonts: WinAnsi covers Spanish,
 * Catalan and Basque): reference, creditor, debtor, IBAN, payment type, the legal text, the
 * signature's evidence (time and address) and the mandate's state.
 */
export function renderMandatePdf(input: MandatePdfInput): PDFKit.PDFDocument {
  if (!Object.hasOwn(mandatePdfMessages, input.language)) {
    throw new TypeError('The PDF has no such language');
  }
  const m = mandatePdfMessages[input.language];
  const { mandate, brand } = input;
  const color = `#${brand.primary_color.replace(/^#/, '')}`;
  const doc = usePdfFonts(
    new PDFDocument({
      size: 'A4',
      margin: 48,
      info: {
        Title: `${m.title} ${mandate.reference}`,
        Author: mandate.creditor_name,
        ...(input.createdAt ? { CreationDate: input.createdAt } : {}),
      },
    }),
  );
  const left = 48;
  const width = doc.page.width - 96;
  doc.rect(0, 0, doc.page.width, 8).fill(color);

  const logoWidth = drawLogo(doc, brand, 48);
  doc.font(pdfFont.bold).fontSize(16).fillColor(color);
  doc.text(m.title, left + logoWidth, 34, { width: width - logoWidth });
  doc.font(pdfFont.regular).fontSize(9).fillColor('#52525b');
  doc.text(m.scheme, { width: width - logoWidth });

  // The state, on its own line: a replaced or revoked mandate says so at the top.
  let y = Math.max(doc.y, 84) + 10;
  doc.font(pdfFont.bold).fontSize(10).fillColor(statusColour[mandate.status]);
  doc.text(`${m.state}: ${m.states[mandate.status]}`, left, y, { width });
  if (mandate.replaced_by_reference) {
    doc.font(pdfFont.regular).fontSize(9).fillColor('#3f3f46');
    doc.text(`${m.replacedBy}: ${mandate.replaced_by_reference}`, { width });
  }
  y = doc.y + 12;

  const field = (label: string, value: string, x: number, w: number, top: number): number => {
    doc.font(pdfFont.bold).fontSize(8).fillColor('#71717a');
    doc.text(label.toUpperCase(), x, top, { width: w });
    doc.font(pdfFont.regular).fontSize(10).fillColor('#18181b');
    doc.text(value || '-', x, doc.y + 2, { width: w });
    return doc.y + 8;
  };
  const box = (title: string, top: number, rows: [string, string][]): number => {
    const height =
      28 +
      rows.reduce(
        (sum, [, value]) =>
          sum +
          24 +
          doc
            .font(pdfFont.regular)
            .fontSize(10)
            .heightOfString(value || '-', {
              width: width - 24,
            }),
        0,
      );
    doc.roundedRect(left, top, width, height, 6).fillAndStroke('#f4f4f5', '#e4e4e7');
    doc
      .font(pdfFont.bold)
      .fontSize(11)
      .fillColor(color)
      .text(title, left + 12, top + 10);
    let rowTop = top + 28;
    for (const [label, value] of rows) rowTop = field(label, value, left + 12, width - 24, rowTop);
    return top + height + 12;
  };

  y = field(m.reference, mandate.reference, left, width, y) + 4;
  y = box(m.creditor, y, [
    [m.creditorName, mandate.creditor_name],
    [m.address, mandate.creditor_address],
    [m.creditorId, mandate.creditor_id],
  ]);
  y = box(m.debtor, y, [
    [m.debtorName, mandate.debtor_name],
    [m.nif, mandate.debtor_nif],
    [m.iban, mandate.iban],
  ]);
  y = field(m.paymentType, m.recurrent, left, width, y);
  if (mandate.replaces_reference) {
    y = field(m.replaces, mandate.replaces_reference, left, width, y);
  }

  doc.font(pdfFont.regular).fontSize(9).fillColor('#27272a');
  doc.text(m.legal, left, y + 4, { width, align: 'justify', lineGap: 2 });
  y = doc.y + 16;

  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor('#e4e4e7')
    .lineWidth(0.5)
    .stroke();
  doc
    .font(pdfFont.bold)
    .fontSize(11)
    .fillColor(color)
    .text(m.signature, left, y + 10);
  y = doc.y + 6;
  const signedAtEnd = field(m.signedAt, formatSignedAt(mandate.signed_at), left, width * 0.6, y);
  const signedFromEnd = field(
    m.signedFrom,
    mandate.signer_ip,
    left + width * 0.65,
    width * 0.35,
    y,
  );
  doc.font(pdfFont.italic).fontSize(9).fillColor('#3f3f46');
  doc.text(m.acceptance, left, Math.max(signedAtEnd, signedFromEnd), { width });

  // The footer sits inside the bottom margin: lift the margin so pdfkit does not add a page.
  doc.page.margins.bottom = 0;
  doc.font(pdfFont.regular).fontSize(8).fillColor('#71717a');
  doc.text(
    [mandate.creditor_name, mandate.reference, `${m.page} 1/1`].join(' · '),
    left,
    doc.page.height - 36,
    { width, align: 'center', lineBreak: false },
  );
  doc.end();
  return doc;
}

/** The whole document as bytes: what a worker thread of the heavy-work pool sends back. */
export function renderMandatePdfBytes(input: MandatePdfInput): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const doc = renderMandatePdf(input);
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
