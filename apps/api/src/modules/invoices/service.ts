import {
  InvoiceStatus,
  pageSize,
  type TBalanceResponse,
  type TInvoiceState,
  type TInvoiceDetail,
  type TInvoiceListItem,
  type TInvoicesResponse,
  type TInvoiceSummaryResponse,
  type TPayment,
  type TPaymentsResponse,
  type TRelatedInvoicesResponse,
  type TReturnedDebit,
} from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/app-error.ts';
import { apiToIso, centsToAmount, isoToApi, todayIso } from '../../lib/dates.ts';
import { lineAmountCents } from './line-amount.ts';
import { createInvoiceRepository, type InstalmentRow, type InvoiceListRow } from './repository.ts';
import { instalmentMethodKind } from './method-kind.ts';

export type Actor = { tenantId: string; customerId: string };

/**
 * `allCancelled`: the provider cancelled every instalment of it, one by one; nobody owes it and
 * nobody paid it, so it is cancelled as an invoice cancelled whole is (before session 37 "Pagada").
 */
const statusOf = (
  row: Pick<InvoiceListRow, 'cancelled' | 'owed_cents'>,
  allCancelled: boolean,
): number =>
  row.cancelled || allCancelled
    ? InvoiceStatus.cancelled
    : row.owed_cents === 0
      ? InvoiceStatus.paid
      : InvoiceStatus.pending;

/**
 * What an invoice is today (the contract's `ZInvoiceState`): the one place it is decided, for the
 * list, the detail and the home shortcut alike. `isOverdue`: an unpaid instalment is due before
 * today in Madrid.
 */
function invoiceState(
  row: Pick<InvoiceListRow, 'cancelled' | 'owed_cents' | 'total_cents'>,
  facts: { overdue: boolean; returned: boolean; somethingPaid: boolean; allCancelled: boolean },
): TInvoiceState {
  if (row.cancelled || facts.allCancelled) return 'cancelled';
  if (row.total_cents < 0) return 'credit_note';
  if (row.owed_cents <= 0) return 'paid';
  if (facts.returned) return 'returned';
  if (facts.overdue) return 'overdue';
  // Partly paid when an instalment was paid: one the provider cancelled is owed by nobody, not
  // paid (before session 36 anything owed below the total read as partly paid).
  return facts.somethingPaid ? 'partially_paid' : 'pending';
}

/** One row of the invoice list as the customer is served it (the bench's floor serves it the same way). */
export const toListItem = (row: InvoiceListRow): TInvoiceListItem => ({
  invoice_id: row.invoice_id,
  invoice_date: row.invoice_date,
  status: statusOf(row, row.all_cancelled === true),
  state: invoiceState(row, {
    overdue: row.overdue === true,
    returned: row.returned === true,
    somethingPaid: row.any_paid === true,
    allCancelled: row.all_cancelled === true,
  }),
  amount: centsToAmount(row.owed_cents),
  total: centsToAmount(row.total_cents),
});

/** The state of an instalment as the customer sees it today (`todayApi`: Madrid, `yyyymmdd`). */
export function paymentStatus(
  row: Pick<InstalmentRow, 'status' | 'due_date'>,
  todayApi: string,
): TPayment['status'] {
  // A returned direct debit says so ("Devuelto") rather than just "Vencido" (issue 23, item 4).
  if (row.status === 'paid' || row.status === 'cancelled' || row.status === 'returned')
    return row.status;
  return row.due_date < todayApi ? 'overdue' : 'pending';
}

/** The bank's return of an instalment while it is `returned` (absent when none was reported). */
function returnedDebit(row: Pick<InstalmentRow, 'status' | 'returned'>): {
  returned?: TReturnedDebit;
} {
  if (row.status !== 'returned' || !row.returned) return {};
  const r = row.returned;
  return {
    returned: {
      return_date: r.return_date,
      reason_code: r.reason_code,
      fee: centsToAmount(Number(r.fee_cents)),
      fee_charged: r.fee_charged && Number(r.fee_cents) > 0,
    },
  };
}

/** A row of "Mis pagos" as served (the bench's floor serves it the same way). */
export function toPayment(
  e: InstalmentRow & { receipt_id: string | null },
  todayApi: string,
): TPayment {
  const status = paymentStatus(e, todayApi);
  const owed = status === 'pending' || status === 'overdue' || status === 'returned';
  return {
    payment_id: e.id,
    invoice_id: e.invoice_id,
    amount: centsToAmount(e.amount_cents),
    due_date: e.due_date,
    ...(e.paid_date ? { paid_date: e.paid_date } : {}),
    method: e.method,
    method_kind: instalmentMethodKind(e.method),
    status,
    ...returnedDebit(e),
    // Number(): the bench's floor serves rows as pg gives them (int8 as text); `+` joined them.
    ...(owed
      ? { to_pay: centsToAmount(Number(e.amount_cents) + chargedReturnFeesCents([e])) }
      : {}),
    ...(e.receipt_id ? { receipt_id: e.receipt_id } : {}),
  };
}

/** The bank fees paid with an invoice's returned instalments (where the tenant charges them). */
function chargedReturnFeesCents(rows: Pick<InstalmentRow, 'status' | 'returned'>[]): number {
  return rows.reduce(
    (sum, row) =>
      row.status === 'returned' && row.returned?.fee_charged
        ? sum + Number(row.returned.fee_cents)
        : sum,
    0,
  );
}

/** One page plus one row tells whether there is a next page without counting. */
function paged<T>(rows: T[]): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

export function createInvoiceService(db: Database, now: () => Date = () => new Date()) {
  const repository = createInvoiceRepository();

  return {
    async list(
      actor: Actor,
      q: {
        datefrom: string;
        dateto: string;
        page: number;
        paid?: boolean | undefined;
        pending?: boolean | undefined;
      },
    ): Promise<TInvoicesResponse> {
      // Neither filter: everything. Both: paid or pending, so not the cancelled ones (before
      // session 36 both answered everything, cancelled invoices included).
      const only =
        q.paid && q.pending ? 'paidOrPending' : q.paid ? 'paid' : q.pending ? 'pending' : undefined;
      const rows = await db.readTenant(actor.tenantId, (sql) =>
        repository.listInvoices(sql, {
          customerId: actor.customerId,
          from: apiToIso(q.datefrom),
          to: apiToIso(q.dateto),
          today: todayIso(now()),
          offset: (q.page - 1) * pageSize,
          limit: pageSize + 1,
          ...(only ? { only } : {}),
        }),
      );
      const { items, hasMore } = paged(rows);
      return { invoices: items.map(toListItem), has_more: hasMore };
    },

    async summary(
      actor: Actor,
      q: { datefrom: string; dateto: string },
    ): Promise<TInvoiceSummaryResponse> {
      const row = await db.readTenant(actor.tenantId, (sql) =>
        repository.summary(sql, {
          customerId: actor.customerId,
          from: apiToIso(q.datefrom),
          to: apiToIso(q.dateto),
        }),
      );
      return {
        summary: { total_invoices: row.invoices, total_pending: centsToAmount(row.pending_cents) },
      };
    },

    /** The issuer and the recipient printed on the customer's invoice PDFs. */
    async pdfParties(actor: Actor) {
      const parties = await db.withTenant(actor.tenantId, (sql) =>
        repository.findPdfParties(sql, actor.customerId),
      );
      if (!parties) throw notFound('Invoice');
      return parties;
    },

    /**
     * A 404 unless the invoice is the customer's: the header only, not its lines (a PDF link of a
     * 500-line invoice read and parsed all of them on the event loop, to throw them away).
     */
    async ensureOwn(actor: Actor, invoiceId: string): Promise<void> {
      const invoice = await db.readTenant(actor.tenantId, (sql) =>
        repository.findInvoice(sql, actor.customerId, invoiceId),
      );
      if (!invoice) throw notFound('Invoice');
    },

    async detail(actor: Actor, invoiceId: string): Promise<TInvoiceDetail> {
      const invoice = await db.readTenant(actor.tenantId, (sql) =>
        repository.findInvoiceWithParts(sql, actor.customerId, invoiceId),
      );
      if (!invoice) throw notFound('Invoice');
      const { lines, instalments } = invoice;
      const todayApi = isoToApi(todayIso(now()));
      const statuses = instalments.map((e) => paymentStatus(e, todayApi));
      const allCancelled = statuses.length > 0 && statuses.every((s) => s === 'cancelled');
      return {
        invoice_id: invoice.invoice_id,
        invoice_date: invoice.invoice_date,
        base: centsToAmount(invoice.base_cents),
        iva: centsToAmount(invoice.vat_cents),
        total: centsToAmount(invoice.total_cents),
        import: centsToAmount(invoice.total_cents),
        pending: centsToAmount(invoice.owed_cents),
        to_pay: centsToAmount(invoice.owed_cents + chargedReturnFeesCents(instalments)),
        customer_name: invoice.customer_name,
        status: statusOf(invoice, allCancelled),
        state: invoiceState(invoice, {
          overdue: statuses.some((s) => s === 'overdue'),
          returned: statuses.some((s) => s === 'returned'),
          somethingPaid: statuses.some((s) => s === 'paid'),
          allCancelled,
        }),
        lines: lines.map((l) => ({
          person: l.person,
          concept: l.concept,
          quota: l.quota,
          quantity: l.quantity,
          unit_price: centsToAmount(l.unit_price_cents),
          iva: l.vat_rate,
          amount: centsToAmount(lineAmountCents(l.unit_price_cents, l.quantity)),
        })),
        payments: instalments.map((e, i) => ({
          payment_id: e.id,
          duedate: e.due_date,
          method: e.method,
          method_kind: instalmentMethodKind(e.method),
          import: centsToAmount(e.amount_cents),
          paiddate: e.paid_date,
          state: e.status,
          status: statuses[i] ?? paymentStatus(e, todayApi),
          ...returnedDebit(e),
        })),
      };
    },

    /** What the customer owes today in Madrid, and what one "Pagar" pays (`GET /balance`). */
    async balance(actor: Actor): Promise<TBalanceResponse> {
      const row = await db.readTenant(actor.tenantId, (sql) =>
        repository.balance(sql, { customerId: actor.customerId, today: todayIso(now()) }),
      );
      const payCents = row.pay.reduce((sum, p) => sum + p.amount_cents, 0);
      return {
        outstanding: centsToAmount(row.outstanding_cents),
        outstanding_count: row.outstanding_count,
        overdue: centsToAmount(row.overdue_cents),
        overdue_count: row.overdue_count,
        next_due_date: row.next_due_date,
        pay: {
          scope: row.pay.length === 0 ? 'none' : row.overdue_count > 0 ? 'overdue' : 'pending',
          amount: centsToAmount(payCents),
          payment_ids: row.pay.map((p) => p.id),
        },
      };
    },

    async related(actor: Actor, invoiceId: string): Promise<TRelatedInvoicesResponse> {
      const result = await db.withTenant(actor.tenantId, async (sql) => {
        const invoice = await repository.findInvoice(sql, actor.customerId, invoiceId);
        return invoice ? repository.related(sql, actor.customerId, invoice) : undefined;
      });
      if (!result) throw notFound('Invoice');
      return result;
    },

    async payments(
      actor: Actor,
      q: {
        datefrom: string;
        dateto: string;
        page: number;
        pending?: boolean | undefined;
        overdue?: boolean | undefined;
        order?: 'asc' | 'desc' | undefined;
      },
    ): Promise<TPaymentsResponse> {
      const today = todayIso(now());
      const states = [
        ...(q.pending ? ['pending' as const] : []),
        ...(q.overdue ? ['overdue' as const] : []),
      ];
      const rows = await db.readTenant(actor.tenantId, (sql) =>
        repository.listPayments(sql, {
          customerId: actor.customerId,
          from: apiToIso(q.datefrom),
          to: apiToIso(q.dateto),
          today,
          offset: (q.page - 1) * pageSize,
          limit: pageSize + 1,
          states,
          order: q.order ?? 'desc',
        }),
      );
      const { items, hasMore } = paged(rows);
      const todayApi = isoToApi(today);
      return { payments: items.map((e) => toPayment(e, todayApi)), has_more: hasMore };
    },
  };
}
