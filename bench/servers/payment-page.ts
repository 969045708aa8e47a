import { pageSize } from '@portal/contract';
import { isoToApi, todayIso } from '../../apps/api/src/lib/dates.ts';
import {
  paymentsPageSql,
  type InstalmentRow,
} from '../../apps/api/src/modules/invoices/repository.ts';
import { toPayment } from '../../apps/api/src/modules/invoices/service.ts';
import { isoOf, type FloorPools, type InvoicePageRequest } from './invoice-page.ts';

/**
 * The floor of `/payments` (issue 22: "/payments ≥ 0.9x the minimal Fastify + pg floor"): the
 * portal's own page query of a customer's instalments (`paymentsPageSql`, with the tenant as a
 * parameter instead of the transaction's setting: its returned debit and its receipt's payment for
 * each row) on a plain pool, each row served as the portal serves it (`toPayment`). No auth, no
 * row-level security, no transaction, no validation and no schema serialisation. Until session 20
 * `/payments` was set against the `/invoices` floor, a lighter query (no receipt lookup per paid
 * row); the bench reports both. The bench checks that both give the same answer before it measures.
 */
export const paymentPageSql = paymentsPageSql('$7', 'AND $4::date IS NOT NULL', 'DESC');

/** The same request as the `/invoices` floor's: tenant, customer, range and page. */
export type PaymentPageRequest = InvoicePageRequest;

export function createPaymentPage(pools: FloorPools) {
  return {
    /** `prepared`: as a named statement (parsed and planned once per connection), like the portal's. */
    async page(q: PaymentPageRequest, prepared = false) {
      const today = todayIso();
      const values = [
        q.customer,
        isoOf(q.datefrom),
        isoOf(q.dateto),
        today,
        pageSize + 1,
        (q.page - 1) * pageSize,
        q.tenant,
      ];
      type Row = InstalmentRow & { receipt_id: string | null };
      const { rows } = prepared
        ? await pools.prepared.query<Row>({ name: 'payment_page', text: paymentPageSql, values })
        : await pools.plain.query<Row>(paymentPageSql, values);
      const todayApi = isoToApi(today);
      return {
        payments: rows.slice(0, pageSize).map((e) => toPayment(e, todayApi)),
        has_more: rows.length > pageSize,
      };
    },
  };
}
