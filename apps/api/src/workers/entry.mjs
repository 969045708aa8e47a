// The pool's threads start here. Plain JavaScript, so that it loads the same way under tsx (the
// server), vitest (the tests) and node: tsx's scoped import compiles the TypeScript tasks.
import { move } from 'piscina';
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./tasks.ts', import.meta.url);

/** The PDF's bytes are moved to the main thread, not copied. */
export async function renderInvoicePdf(input) {
  return move(await tasks.renderInvoicePdf(input));
}

export function prepareInvoices(body) {
  return tasks.prepareInvoices(body);
}

export function ingestInvoiceBatch(input) {
  return tasks.ingestInvoiceBatch(input);
}

export function parseBatch({ name, body }) {
  return tasks.parseBatch(name, body);
}

export async function renderReceiptPdf(input) {
  return move(await tasks.renderReceiptPdf(input));
}

export async function renderStatementPdf(input) {
  return move(await tasks.renderStatementPdf(input));
}

export async function renderMandatePdf(input) {
  return move(await tasks.renderMandatePdf(input));
}

export function threadPriority() {
  return tasks.threadPriority();
}
