import { FieldError } from '@portal/contract';
import { ZIngestInvoicesRequest } from '@portal/contract/admin-ingestion';
import { checkInvoice, createBatchErrors, repeatedIndexes } from './batch-checks.ts';
import { parseBody, type Parsed } from './parse-batch.ts';
import { textArray, type TextArray } from '../../db/text-array.ts';

/**
 * An invoice batch parsed, validated and turned into the statements' parameters, ready for the
 * transaction. Only what the checks against the database need stays as values (ids, codes, line
 * numbers and instalments as flat arrays, cheap to pass between threads); the rows go to
 * PostgreSQL as the JSON texts its `jsonb_to_recordset` reads.
 */
export type InvoiceBatch = {
  ids: string[];
  /** The same ids as the statements' `text[]` parameter, written here, off the event loop. */
  idsArray: TextArray;
  customerCodes: string[];
  /** Whether invoice i comes cancelled. */
  cancelled: boolean[];
  /** Errors of the batch on its own (repeated ids, sums), by path: the 422's `errors`. */
  errors: Record<string, string[]>;
  /** Invoice i's line numbers are lineNos[lineStart[i]] to lineNos[lineStart[i + 1] - 1]. */
  lineStart: number[];
  lineNos: number[];
  /** The invoice of each of lineNos, as a `text[]` parameter (the lines the batch keeps). */
  lineIdsArray: TextArray;
  /** Invoice i's instalments: seqs and amounts from instalmentStart[i] to instalmentStart[i + 1]. */
  instalmentStart: number[];
  seqs: number[];
  amounts: number[];
  /** Rows of `invoices`, `invoice_lines` and `instalments`, customers by code. */
  invoicesJson: string;
  linesJson: string;
  instalmentsJson: string;
};

export type PreparedInvoices = Parsed<InvoiceBatch>;

/**
 * The pure part of `PUT /admin/invoices`, run on the heavy-work pool: JSON parsing and the
 * contract's validation of up to 10,000 invoices and their lines took ~150 ms of the event loop
 * in one piece, and building the parameters another ~100 ms in pieces.
 */
export function prepareInvoices(body: unknown): PreparedInvoices {
  const parsed = parseBody(body, ZIngestInvoicesRequest);
  if (parsed.kind !== 'valid') return parsed;
  const { invoices } = parsed.data;
  const errors = createBatchErrors();
  for (const i of repeatedIndexes(invoices.map((v) => v.id)))
    errors.add(`invoices.${i}.id`, FieldError.duplicate);
  invoices.forEach((invoice, i) => checkInvoice(invoice, `invoices.${i}`, errors));

  const lineStart = [0];
  const lineNos: number[] = [];
  const lineIds: string[] = [];
  const instalmentStart = [0];
  const seqs: number[] = [];
  const amounts: number[] = [];
  const lines: object[] = [];
  const instalments: object[] = [];
  for (const v of invoices) {
    for (const l of v.lines) {
      lineNos.push(l.line_no);
      lineIds.push(v.id);
      lines.push({
        invoice_id: v.id,
        line_no: l.line_no,
        person: l.person,
        concept: l.concept,
        quota: l.quota,
        quantity: l.quantity,
        unit_price_cents: l.unit_price_cents,
        vat_rate: l.vat_rate,
      });
    }
    lineStart.push(lineNos.length);
    for (const e of v.instalments) {
      seqs.push(e.seq);
      amounts.push(e.amount_cents);
      const status = e.status ?? 'pending';
      instalments.push({
        invoice_id: v.id,
        seq: e.seq,
        customer_code: v.customer_code,
        due_date: e.due_date,
        amount_cents: e.amount_cents,
        method: e.method ?? null,
        status,
        paid_date: status === 'paid' ? (e.paid_date ?? null) : null,
      });
    }
    instalmentStart.push(seqs.length);
  }
  return {
    kind: 'valid',
    data: {
      ids: invoices.map((v) => v.id),
      idsArray: textArray(invoices.map((v) => v.id)),
      customerCodes: invoices.map((v) => v.customer_code),
      cancelled: invoices.map((v) => v.cancelled === true),
      errors: errors.toJSON(),
      lineStart,
      lineNos,
      lineIdsArray: textArray(lineIds),
      instalmentStart,
      seqs,
      amounts,
      invoicesJson: JSON.stringify(
        invoices.map((v) => ({
          id: v.id,
          customer_code: v.customer_code,
          invoice_date: v.invoice_date,
          base_cents: v.base_cents,
          vat_cents: v.vat_cents,
          total_cents: v.total_cents,
          cancelled: v.cancelled,
        })),
      ),
      linesJson: JSON.stringify(lines),
      instalmentsJson: JSON.stringify(instalments),
    },
  };
}
