import { move } from 'piscina';
import * as tasks from './tasks.ts';

/**
 * The pool's thread entry of the compiled server (`npm run build` makes it `dist/worker.js`); the
 * TypeScript server uses `entry.mjs`, which compiles `tasks.ts` through tsx. Same exports.
 */
export async function renderInvoicePdf(input: Parameters<typeof tasks.renderInvoicePdf>[0]) {
  // The PDF's bytes are moved to the main thread, not copied.
  return move(await tasks.renderInvoicePdf(input));
}

export function prepareInvoices(body: unknown) {
  return tasks.prepareInvoices(body);
}

export function ingestInvoiceBatch(input: Parameters<typeof tasks.ingestInvoiceBatch>[0]) {
  return tasks.ingestInvoiceBatch(input);
}

export function parseBatch({
  name,
  body,
}: {
  name: Parameters<typeof tasks.parseBatch>[0];
  body: unknown;
}) {
  return tasks.parseBatch(name, body);
}

export async function renderReceiptPdf(input: Parameters<typeof tasks.renderReceiptPdf>[0]) {
  return move(await tasks.renderReceiptPdf(input));
}

export async function renderStatementPdf(input: Parameters<typeof tasks.renderStatementPdf>[0]) {
  return move(await tasks.renderStatementPdf(input));
}

export async function renderMandatePdf(input: Parameters<typeof tasks.renderMandatePdf>[0]) {
  return move(await tasks.renderMandatePdf(input));
}

export function threadPriority() {
  return tasks.threadPriority();
}
