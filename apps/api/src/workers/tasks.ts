import { renderInvoicePdfBytes, type PdfInput } from '../modules/invoices/pdf.ts';
import { renderReceiptPdfBytes, type ReceiptPdfInput } from '../modules/documents/receipt-pdf.ts';
import {
  renderStatementPdfBytes,
  type StatementPdfInput,
} from '../modules/documents/statement-pdf.ts';
export { parseBatch } from '../modules/ingestion/parse-batch.ts';
export { prepareInvoices } from '../modules/ingestion/prepare-invoices.ts';
export { ingestInvoiceBatch } from './ingest-invoices.ts';
import { renderMandatePdfBytes, type MandatePdfInput } from '../modules/mandates/pdf.ts';
import { isMainThread } from 'node:worker_threads';
import { workerData } from 'piscina';
import { joinIdleGroup, type GroupMembership, type IdleGroup } from './idle-group.ts';
import { idleThread, threadId, type ThreadPriority } from './priority.ts';

/** The pool's word to its threads (pool.ts): the idle cgroup to join, if the host has one. */
export type PoolWorkerData = { idleGroup: IdleGroup };

/**
 * A pool thread gives way to every other thread of the machine from its start: SCHED_IDLE
 * (priority.ts), and the idle cgroup where there is one (idle-group.ts). The main thread, should it
 * ever load this module, is left as it is.
 */
function placeThread(): ThreadPlace {
  if (isMainThread)
    return {
      policy: 'unchanged',
      reason: 'main thread',
      cgroup: { group: null, reason: 'main thread' },
    };
  const priority = idleThread();
  const tid = threadId();
  const given = (workerData as PoolWorkerData | undefined)?.idleGroup;
  const cgroup: GroupMembership =
    tid === null
      ? { group: null, reason: 'no thread id' }
      : joinIdleGroup(given ?? { dir: null, reason: 'none given' }, tid);
  return { ...priority, cgroup };
}

/** The scheduling policy a pool thread got when it started, and the cgroup it joined. */
export type ThreadPlace = ThreadPriority & { cgroup: GroupMembership };

const place = placeThread();

export function threadPriority(): ThreadPlace {
  return place;
}

/**
 * The work the pool's threads do (entry.mjs exports each under the same name). Inputs and results
 * cross threads by structured clone: plain data only.
 */
export async function renderInvoicePdf(input: PdfInput): Promise<Uint8Array> {
  // A buffer of its own (Buffer.concat may hand out a slice of Node's shared pool), so that it
  // can be moved to the main thread.
  return new Uint8Array(await renderInvoicePdfBytes(input));
}

/** A receipt's PDF (documents module): its own buffer, moved to the main thread. */
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
