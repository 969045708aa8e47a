import {
  InvoiceStatus,
  pageSize,
  type TInvoiceDetail,
  type TInvoiceListItem,
  type TInvoicesResponse,
  type TInvoiceSummaryResponse,
  type TPayment,
  type TPaymentsResponse,
  type TRelatedInvoicesResponse,
} from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/app-error.ts';
import { apiToIso, centsToAmount, todayIso } from '../../lib/dates.ts';
import { createInvoiceRepository, type InstalmentRow, type InvoiceListRow } from './repository.ts';

export type Actor = { tenantId: string; customerId: string };

const statusOf = (row: Pick<InvoiceListRow, 'cancelled' | 'owed_cents'>): number =>
  row.cancelled
    ? InvoiceStatus.cancelled
    : row.owed_cents === 0
      ? InvoiceStatus.paid
      : InvoiceStatus.pending;

const toListItem = (row: InvoiceListRow): TInvoiceListItem => ({
  invoice_id: row.invoice_id,
  invoice_date: row.invoice_date,
  status: statusOf(row),
  amount: centsToAmount(row.owed_cents),
  total: centsToAmount(row.total_cents),
});

/** The state of an instalment as the customer sees it today. */
export function paymentStatus(
  row: Pick<InstalmentRow, 'status' | 'due_date'>,
  todayApi: string,
): TPayment['status'] {
  if (row.status === 'paid' || row.status === 'cancelled') return row.status;
  return row.due_date < todayApi ? 'overdue' : 'pending';
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
      // Both filters or neither: everything (the two together cover every invoice but cancelled ones).
      const only = q.paid && !q.pending ? 'paid' : q.pending && !q.paid ? 'pending' : undefined;
      const rows = await db.readTenant(actor.tenantId, (sql) =>
        repository.listInvoices(sql, {
          customerId: actor.customerId,
          from: apiToIso(q.datefrom),
          to: apiToIso(q.dateto),
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

    async detail(actor: Actor, invoiceId: string): Promise<TInvoiceDetail> {
      const invoice = await db.readTenant(actor.tenantId, (sql) =>
        repository.findInvoiceWithParts(sql, actor.customerId, invoiceId),
      );
      if (!invoice) throw notFound('Invoice');
      const { lines, instalments } = invoice;
      return {
        invoice_id: invoice.invoice_id,
        invoice_date: invoice.invoice_date,
        base: centsToAmount(invoice.base_cents),
        iva: centsToAmount(invoice.vat_cents),
        total: centsToAmount(invoice.total_cents),
        import: centsToAmount(invoice.total_cents),
        pending: centsToAmount(invoice.owed_cents),
        customer_name: invoice.customer_name,
        status: statusOf(invoice),
        lines: lines.map((l) => ({
          person: l.person,
          concept: l.concept,
          quota: l.quota,
          quantity: l.quantity,
          unit_price: centsToAmount(l.unit_price_cents),
          iva: l.vat_rate,
        })),
        payments: instalments.map((e) => ({
          payment_id: e.id,
          duedate: e.due_date,
          method: e.method,
          import: centsToAmount(e.amount_cents),
          paiddate: e.paid_date,
          state: e.status,
        })),
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
      const todayApi = today.replace(/-/g, '');
      return {
        payments: items.map((e) => ({
          payment_id: e.id,
          invoice_id: e.invoice_id,
          amount: centsToAmount(e.amount_cents),
          due_date: e.due_date,
          ...(e.paid_date ? { paid_date: e.paid_date } : {}),
          method: e.method,
          status: paymentStatus(e, todayApi),
        })),
        has_more: hasMore,
      };
    },
  };
}
export type InvoiceService = ReturnType<typeof createInvoiceService>;
