/**
 * One movement of a statement: an invoice issued, a direct debit the bank returned (what its
 * collection had paid, owed again) or a returned debit's bank fee charged (charges), or a payment
 * received (a credit).
 */
export type StatementRow = {
  /** `yyyymmdd`. */
  date: string;
  kind: 'invoice' | 'return' | 'fee' | 'payment';
  /** The invoice id (every kind: a return, a fee or a payment names the invoice of its instalment). */
  reference: string;
  /** A payment's method as the provider wrote it; empty for an invoice, a return or a fee. */
  method: string;
  charge_cents: number;
  credit_cents: number;
  /** The balance after this movement. */
  balance_cents: number;
};

export type Statement = {
  from: string;
  to: string;
  opening_cents: number;
  invoiced_cents: number;
  paid_cents: number;
  /** opening + invoiced − paid. */
  closing_cents: number;
  rows: StatementRow[];
};

/** Charges before credits on the same day: invoices, then returns and their fees, then payments. */
const kindOrder: Record<StatementRow['kind'], number> = {
  invoice: 0,
  return: 1,
  fee: 2,
  payment: 3,
};

type KindLabels = { kindInvoice: string; kindReturn: string; kindFee: string; kindPayment: string };

/** The word of a movement's kind in the document's language. */
export const kindLabel = (kind: StatementRow['kind'], m: KindLabels): string =>
  ({
    invoice: m.kindInvoice,
    return: m.kindReturn,
    fee: m.kindFee,
    payment: m.kindPayment,
  })[kind];

/**
 * The statement of a period from the movements in it, oldest first (invoices before payments of
 * the same day), each with the running balance: the one place the arithmetic is done.
 */
export function buildStatement(input: {
  from: string;
  to: string;
  opening_cents: number;
  movements: Omit<StatementRow, 'balance_cents'>[];
}): Statement {
  const sorted = [...input.movements].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      kindOrder[a.kind] - kindOrder[b.kind] ||
      a.reference.localeCompare(b.reference),
  );
  let balance = input.opening_cents;
  let invoiced = 0;
  let paid = 0;
  const rows = sorted.map((r) => {
    balance += r.charge_cents - r.credit_cents;
    invoiced += r.charge_cents;
    paid += r.credit_cents;
    return { ...r, balance_cents: balance };
  });
  return {
    from: input.from,
    to: input.to,
    opening_cents: input.opening_cents,
    invoiced_cents: invoiced,
    paid_cents: paid,
    closing_cents: input.opening_cents + invoiced - paid,
    rows,
  };
}

/**
 * A cell a spreadsheet reads as text: a value starting with `=`, `+`, `-`, `@` (or a tab or a
 * carriage return) would be run as a formula, so it gets a leading apostrophe (OWASP "CSV
 * injection"); a value with the separator, a quote or a line break is quoted, quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Cents as Spanish Excel reads a number: decimal comma, no thousands separator (-12,50). */
const csvAmount = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};
const csvDate = (api: string): string => `${api.slice(6, 8)}/${api.slice(4, 6)}/${api.slice(0, 4)}`;

/**
 * The statement as CSV for Excel in Spain: UTF-8 with a BOM (so accents read right), `;` between
 * cells (Excel in a Spanish locale splits on it, the comma being the decimal sign), CRLF lines.
 * Amounts are numbers (decimal comma) so that the sheet can add them up. A negative amount is a
 * number, not text: only cells of the provider's or customer's words are escaped.
 */
export function statementCsv(
  statement: Statement,
  m: KindLabels & {
    date: string;
    kind: string;
    reference: string;
    detail: string;
    charge: string;
    credit: string;
    balance: string;
    opening: string;
    closing: string;
  },
): string {
  const line = (cells: string[]) => cells.join(';');
  const lines = [
    line([m.date, m.kind, m.reference, m.detail, m.charge, m.credit, m.balance].map(csvCell)),
    line([
      csvDate(statement.from),
      csvCell(m.opening),
      '',
      '',
      '',
      '',
      csvAmount(statement.opening_cents),
    ]),
    ...statement.rows.map((r) =>
      line([
        csvDate(r.date),
        csvCell(kindLabel(r.kind, m)),
        csvCell(r.reference),
        csvCell(r.method),
        r.charge_cents ? csvAmount(r.charge_cents) : '',
        r.credit_cents ? csvAmount(r.credit_cents) : '',
        csvAmount(r.balance_cents),
      ]),
    ),
    line([
      csvDate(statement.to),
      csvCell(m.closing),
      '',
      '',
      '',
      '',
      csvAmount(statement.closing_cents),
    ]),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
