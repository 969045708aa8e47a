import { pageSize, type TPayment } from '@portal/contract';
import type pg from 'pg';
import { centsToAmount, isoToApi, todayIso } from '../../apps/api/src/lib/dates.ts';
import { instalmentMethodKind } from '../../apps/api/src/modules/invoices/method-kind.ts';
import { paymentStatus } from '../../apps/api/src/modules/invoices/service.ts';
import {
  returnedDebitJsonSql,
  type ReturnedDebitJson,
} from '../../apps/api/src/modules/returned-debits/repository.ts';

/**
 * The floor of `/payments` (issue 22: "/payments ≥ 0.9x the minimal Fastify + pg floor"): the
 * portal's own page query of a customer's instalments (the repository's listPayments, with the
 * tenant as a parameter instead of the transaction's setting: its returned debit and its receipt's
 * payment for each row) on a plain pool, and the same answer. No auth, no row-level security, no
 * transaction, no validation and no schema serialisation. Until session 20 `/payments` was set
 * against the `/invoices` floor, a lighter query (no receipt lookup per paid row); the bench
 * reports both. The bench checks that both give the same answer before it measures.
 */
export const paymentPageSql = `SELECT id, invoice_id, seq, to_char(due_date, 'YYYYMMDD') AS due_date,
       to_char(paid_date, 'YYYYMMDD') AS paid_date, amount_cents, method, status,
       ${returnedDebitJsonSql('instalments')} AS returned,
       CASE WHEN status = 'paid' THEN (
         SELECT a.id::text FROM payment_attempt_items pi
           JOIN payment_attempts a ON a.tenant_id = pi.tenant_id AND a.id = pi.attempt_id
          WHERE pi.tenant_id = instalments.tenant_id AND pi.instalment_id = instalments.id
            AND a.customer_id = instalments.customer_id
            AND a.kind = 'payment' AND a.status = 'paid'
          ORDER BY coalesce(a.settled_at, a.created_at) DESC LIMIT 1) END AS receipt_id
  FROM instalments
 WHERE tenant_id = $7 AND customer_id = $1
   AND due_date BETWEEN $2 AND $3 AND $4::date IS NOT NULL
 ORDER BY instalments.due_date DESC, instalments.invoice_id DESC, instalments.seq DESC
 LIMIT $5 OFFSET $6`;

export type PaymentPageRequest = {
  tenant: string;
  customer: string;
  datefrom: string;
  dateto: string;
  page: number;
};

type Row = {
  id: string;
  invoice_id: string;
  due_date: string;
  paid_date: string | null;
  amount_cents: number;
  method: string;
  status: 'pending' | 'paid' | 'cancelled' | 'returned';
  returned: ReturnedDebitJson | null;
  receipt_id: string | null;
};

const isoOf = (api: string) => `${api.slice(0, 4)}-${api.slice(4, 6)}-${api.slice(6, 8)}`;

export function createPaymentPage(pool: pg.Pool) {
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
      const { rows } = await pool.query<Row>(
        prepared ? { name: 'payment_page', text: paymentPageSql, values } : paymentPageSql,
        prepared ? undefined : values,
      );
      const todayApi = isoToApi(today);
      return {
        payments: rows.slice(0, pageSize).map((e): TPayment => {
          const r = e.status === 'returned' ? e.returned : null;
          return {
            payment_id: e.id,
            invoice_id: e.invoice_id,
            amount: centsToAmount(e.amount_cents),
            due_date: e.due_date,
            ...(e.paid_date ? { paid_date: e.paid_date } : {}),
            method: e.method,
            method_kind: instalmentMethodKind(e.method),
            status: paymentStatus(e, todayApi),
            ...(r
              ? {
                  returned: {
                    return_date: r.return_date,
                    reason_code: r.reason_code,
                    fee: centsToAmount(Number(r.fee_cents)),
                    fee_charged: r.fee_charged && Number(r.fee_cents) > 0,
                  },
                }
              : {}),
            ...(e.receipt_id ? { receipt_id: e.receipt_id } : {}),
          };
        }),
        has_more: rows.length > pageSize,
      };
    },
  };
}
