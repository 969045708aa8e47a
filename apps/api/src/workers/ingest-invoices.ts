import type { TBatchResult } from '@portal/contract/admin-ingestion';
import { openPostgres, type Database, type PostgresOptions } from '../db/database.ts';
import { AppError, FieldValidationError } from '../lib/app-error.ts';
import type { Parsed } from '../modules/ingestion/parse-batch.ts';
import { prepareInvoices, type InvoiceBatch } from '../modules/ingestion/prepare-invoices.ts';
import { createInvoiceIngestion } from '../modules/ingestion/service.ts';

/**
 * What the heavy-work process answers for an invoice batch: plain data (errors lose their class
 * crossing processes, so each kind the error handler tells apart is said as data and rebuilt in
 * the server by `outcomeResult`).
 */
export type IngestOutcome =
  | { kind: 'done'; result: TBatchResult }
  | { kind: 'refused'; prepared: Exclude<Parsed<InvoiceBatch>, { kind: 'valid' }> }
  | { kind: 'fields'; errors: Record<string, string[]> }
  | {
      kind: 'app';
      statusCode: number;
      code: AppError['code'];
      message: string;
      headers: Record<string, string>;
    }
  | { kind: 'database'; code: string; message: string };

/** The heavy-work process's own small pool (two connections: a batch runs in one transaction). */
let database: Database | undefined;

/** Ends that pool (the heavy-work process, when it is told to stop). */
export async function closeIngestDatabase(): Promise<void> {
  const open = database;
  database = undefined;
  await open?.close();
}

/**
 * The whole `PUT /admin/invoices` in the heavy-work process: parse and check the body, then
 * apply it through the process's own connections, so that none of its work (the checks
 * against what is stored, megabytes of parameters written to the socket, the answers' rows and
 * their garbage) runs on the event loop of the other tenants' requests. Measured: a portal doing
 * the batches in its main thread had event-loop pauses of 30 ms and a /invoices p99 of 7-16x the
 * quiet one; the same batches in another process left it at 2x (bench/isolation.ts).
 */
export async function ingestInvoiceBatch(input: {
  tenantId: string;
  body: unknown;
  database: PostgresOptions;
}): Promise<IngestOutcome> {
  const prepared = prepareInvoices(input.body);
  if (prepared.kind !== 'valid') return { kind: 'refused', prepared };
  database ??= openPostgres({ ...input.database, max: 2 });
  try {
    const result = await createInvoiceIngestion({ db: database }).ingestInvoices(
      input.tenantId,
      prepared.data,
    );
    return { kind: 'done', result };
  } catch (error) {
    if (error instanceof FieldValidationError) return { kind: 'fields', errors: error.errors };
    if (error instanceof AppError) {
      const { statusCode, code, message, headers } = error;
      return { kind: 'app', statusCode, code, message, headers };
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof Error && typeof code === 'string')
      return { kind: 'database', code, message: error.message };
    throw error;
  }
}

/** The heavy-work process's outcome in the server: the result, or the error it was, rebuilt. */
export function outcomeResult(
  outcome: IngestOutcome,
  refused: (prepared: Extract<IngestOutcome, { kind: 'refused' }>['prepared']) => never,
): TBatchResult {
  switch (outcome.kind) {
    case 'done':
      return outcome.result;
    case 'refused':
      return refused(outcome.prepared);
    case 'fields':
      throw new FieldValidationError(outcome.errors);
    case 'app':
      throw new AppError(outcome.statusCode, outcome.code, outcome.message, outcome.headers);
    case 'database':
      throw Object.assign(new Error(outcome.message), { code: outcome.code });
  }
}
