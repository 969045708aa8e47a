import { maxZipInvoices } from '@portal/contract';
import { decodeMerchantParameters } from '@portal/redsys';
import type { Database } from '../../db/database.ts';
import { FieldValidationError, notFound } from '../../lib/app-error.ts';
import { apiToIso, centsToAmount } from '../../lib/dates.ts';
import { createDocumentRepository } from './repository.ts';
import type { ReceiptData } from './receipt-pdf.ts';
import { buildStatement, type Statement } from './statement.ts';

export type Actor = { tenantId: string; customerId: string };

/** The masked card number of the gateway's answer, when it sent one (never a full number). */
function maskedFromGateway(parameters: string | null): {
  masked: string | null;
  brand: string | null;
} {
  if (!parameters) return { masked: null, brand: null };
  try {
    const p = decodeMerchantParameters(parameters) as Record<string, unknown>;
    const number = typeof p.Ds_Card_Number === 'string' ? p.Ds_Card_Number : '';
    const masked = /^[0-9*]{12,19}$/.test(number) && /\*{4,}/.test(number) ? number : null;
    const brand = p.Ds_Card_Brand === '1' ? 'VISA' : p.Ds_Card_Brand === '2' ? 'MASTERCARD' : null;
    return { masked, brand };
  } catch {
    return { masked: null, brand: null };
  }
}

export function createDocumentService(db: Database) {
  const repository = createDocumentRepository();
  return {
    async receipts(actor: Actor) {
      const rows = await db.readTenant(actor.tenantId, (sql) =>
        repository.listReceipts(sql, actor.customerId),
      );
      return {
        receipts: rows.map((r) => ({
          payment_id: r.id,
          order_id: r.order_number,
          date: r.date,
          amount: centsToAmount(Number(r.amount_cents)),
          invoices: [...r.invoices].sort(),
        })),
      };
    },

    /** A completed payment of the customer (card, Bizum or PayPal); another's, a failed or a pending one is a 404. */
    async receipt(actor: Actor, paymentId: string): Promise<ReceiptData> {
      const row = await db.readTenant(actor.tenantId, (sql) =>
        repository.findReceipt(sql, actor.customerId, paymentId),
      );
      if (!row) throw notFound('Payment');
      const gateway = maskedFromGateway(row.merchant_parameters);
      return {
        payment_id: row.id,
        order_id: row.order_number,
        authorisation_code: row.ds_authorisation_code,
        amount_cents: Number(row.amount_cents),
        date: row.date,
        time: row.time,
        card_masked: row.pay_method === 'card' ? (row.card_masked ?? gateway.masked) : null,
        card_brand: row.pay_method === 'card' ? (row.card_brand ?? gateway.brand) : null,
        method: row.pay_method,
        items: row.items.map((i) => ({
          ...i,
          amount_cents: Number(i.amount_cents),
          fee_cents: Number(i.fee_cents),
        })),
        refunded_cents: Number(row.refunded_cents),
      };
    },

    /** The statement of [from, to] (`yyyymmdd`, validated by the contract). */
    async statement(actor: Actor, from: string, to: string): Promise<Statement> {
      // One snapshot: a batch committing between its reads made opening, movements and closing
      // disagree (an invoice's collection credited without its charge: session 39).
      const data = await db.snapshotOfTenant(actor.tenantId, (sql) =>
        repository.statement(sql, {
          customerId: actor.customerId,
          from: apiToIso(from),
          to: apiToIso(to),
        }),
      );
      return buildStatement({
        from,
        to,
        opening_cents: data.openingCents,
        movements: [
          ...data.invoices.map((i) => ({
            date: i.date,
            kind: 'invoice' as const,
            reference: i.id,
            method: '',
            charge_cents: Number(i.total_cents),
            credit_cents: 0,
          })),
          ...data.returns.map((r) => ({
            date: r.date,
            kind: 'return' as const,
            reference: r.invoice_id,
            method: '',
            charge_cents: Number(r.amount_cents),
            credit_cents: 0,
          })),
          ...data.returnFees.map((f) => ({
            date: f.date,
            kind: 'fee' as const,
            reference: f.invoice_id,
            method: '',
            charge_cents: Number(f.fee_cents),
            credit_cents: 0,
          })),
          ...data.payments.map((p) => ({
            date: p.date,
            kind: 'payment' as const,
            reference: p.invoice_id,
            method: p.method,
            charge_cents: 0,
            credit_cents: Number(p.credited_cents),
          })),
        ],
      });
    },

    /**
     * The invoices of an archive: a selection (each must be the customer's: a foreign or unknown
     * id is a 404, like the invoice PDF's) or those of a period (more than `maxZipInvoices` is a
     * 422 `too_big` on `dateto`).
     */
    async zipInvoiceIds(
      actor: Actor,
      by: { ids: string[] } | { from: string; to: string },
    ): Promise<string[]> {
      if ('ids' in by) {
        const wanted = [...new Set(by.ids)];
        const own = await db.readTenant(actor.tenantId, (sql) =>
          repository.ownInvoiceIds(sql, actor.customerId, wanted),
        );
        if (own.length !== wanted.length) throw notFound('Invoice');
        return own;
      }
      const ids = await db.readTenant(actor.tenantId, (sql) =>
        repository.invoiceIdsOfPeriod(sql, {
          customerId: actor.customerId,
          from: apiToIso(by.from),
          to: apiToIso(by.to),
          limit: maxZipInvoices + 1,
        }),
      );
      if (ids.length > maxZipInvoices) throw new FieldValidationError({ dateto: ['too_big'] });
      if (ids.length === 0) throw new FieldValidationError({ dateto: ['no_invoices'] });
      return ids;
    },
  };
}
