import { renderInvoicePdfBytes, type PdfInput } from '../modules/invoices/pdf.ts';
import { renderReceiptPdfBytes, type ReceiptPdfInput } from '../modules/documents/receipt-pdf.ts';
import {
  renderStatementPdfBytes,
  type StatementPdfInput,
} from '../modules/documents/statement-pdf.ts';
import { parseBatch as parseBatchBody } from '../modules/ingestion/parse-batch.ts';
export { prepareInvoices } from '../modules/ingestion/prepare-invoices.ts';
export { ingestInvoiceBatch } from './ingest-invoices.ts';
import { renderMandatePdfBytes, type MandatePdfInput } from '../modules/mandates/pdf.ts';

/**
 * The work the heavy-work process does (heavy-process.ts answers each under its name). Inputs and
 * results cross the process boundary by structured clone: plain data only.
 */
export async function renderInvoicePdf(input: PdfInput): Promise<Uint8Array> {
  // A buffer of its own (Buffer.concat may hand out a slice of Node's shared pool): only the
  // PDF's bytes cross to the server.
  return new Uint8Array(await renderInvoicePdfBytes(input));
}

/** A receipt's PDF (documents module). */
export function renderReceiptPdf(input: ReceiptPdfInput): Promise<Uint8Array> {
  return renderReceiptPdfBytes(input);
}

/** A statement's PDF (documents module). */
export function renderStatementPdf(input: StatementPdfInput): Promise<Uint8Array> {
  return renderStatementPdfBytes(input);
}

/** The SEPA mandate PDF (mandates module), a buffer of its own like the invoice's. */
export async function renderMandatePdf(input: MandatePdfInput): Promise<Uint8Array> {
  return new Uint8Array(await renderMandatePdfBytes(input));
}

/** Another ingestion batch's JSON text parsed and validated, by the batch's name. */
export function parseBatch({
  name,
  body,
}: {
  name: Parameters<typeof parseBatchBody>[0];
  body: unknown;
}) {
  return parseBatchBody(name, body);
}
