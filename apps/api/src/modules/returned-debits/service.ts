import { FieldError } from '@portal/contract';
import type { TBatchResult } from '@portal/contract/admin-ingestion';
import type { TReturnedDebitReport } from '@portal/contract/admin-returned-debits';
import type { Database, SqlQuery } from '../../db/database.ts';
import { createBatchErrors, repeatedIndexes } from '../ingestion/batch-checks.ts';
import { markInstalmentsReturned } from '../ingestion/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotifications } from '../notifications/service.ts';
import { sendReturnedDebitMail, type ReturnedDebitMail } from './mail.ts';
import { createReturnedDebitRepository, type ReportedInstalment } from './repository.ts';

export { chargedFeeSql, returnedDebitJsonSql, type ReturnedDebitJson } from './repository.ts';

const repository = createReturnedDebitRepository();
const keyOf = (invoiceId: string, seq: number) => `${invoiceId}\u0000${seq}`;

/**
 * A card payment paid these returned instalments with their bank fee (the payments module, in the
 * transaction that records the payment): each latest return records the fee collected, once.
 */
export function recordReturnFeesPaid(
  sql: SqlQuery,
  attemptId: string,
  instalmentIds: string[],
): Promise<void> {
  return instalmentIds.length === 0
    ? Promise.resolve()
    : repository.recordFeesPaid(sql, attemptId, instalmentIds);
}

/**
 * Returned direct debits reported by the provider (issue 23, item 4). A report is keyed by the
 * instalment and the return date: a new one makes the instalment `returned` (owed again), tells
 * the customer (notification in the same transaction, e-mail after it) and is counted `created`;
 * the same report again changes nothing and tells nobody; a corrected reason or fee is `updated`
 * and tells nobody either. All or nothing, like every ingestion batch.
 */
export function createReturnedDebitService(deps: {
  db: Database;
  mailer: Mailer;
  log: { error: (obj: object, msg: string) => void };
}) {
  return {
    async report(tenantId: string, reports: TReturnedDebitReport[]): Promise<TBatchResult> {
      const errors = createBatchErrors();
      for (const i of repeatedIndexes(
        reports.map((r) => `${keyOf(r.invoice_id, r.seq)}\u0000${r.return_date}`),
      ))
        errors.add(`returns.${i}.return_date`, FieldError.duplicate);

      const result = await deps.db.withTenant(tenantId, async (sql) => {
        const found = await repository.lockInstalments(sql, reports);
        const byKey = new Map(found.map((f) => [keyOf(f.invoice_id, f.seq), f]));
        const targets: ReportedInstalment[] = [];
        reports.forEach((r, i) => {
          const stored = byKey.get(keyOf(r.invoice_id, r.seq));
          if (!stored) errors.add(`returns.${i}`, FieldError.unknownInstalment);
          // The gateway's answer settles a card payment in progress: a return now would race it.
          else if (stored.in_attempt) errors.add(`returns.${i}`, FieldError.instalmentLocked);
          else if (stored.status === 'cancelled')
            errors.add(`returns.${i}`, FieldError.invalidValue);
          else targets.push(stored);
        });
        errors.throwIfAny();

        const written = await repository.upsertReturns(
          sql,
          reports.map((r, i) => {
            const target = targets[i];
            if (!target) throw new Error('every report has its instalment');
            return {
              instalment_id: target.id,
              customer_id: target.customer_id,
              return_date: r.return_date,
              reason_code: r.reason_code,
              fee_cents: r.fee_cents,
            };
          }),
        );
        const createdKeys = new Set(
          written.filter((w) => w.created).map((w) => `${w.instalment_id} ${w.return_date}`),
        );
        const fresh = reports.flatMap((r, i) => {
          const target = targets[i];
          return target && createdKeys.has(`${target.id} ${r.return_date}`)
            ? [{ report: r, instalment: target }]
            : [];
        });
        // Only a new return makes the instalment owed again: a replay never undoes a payment.
        await markInstalmentsReturned(
          sql,
          fresh.map((f) => ({ invoice_id: f.instalment.invoice_id, seq: f.instalment.seq })),
        );
        const charged = await repository.chargesFee(sql);
        await createNotifications(
          sql,
          fresh.map(({ report, instalment }) => ({
            customerId: instalment.customer_id,
            type: 'debit_returned' as const,
            params: {
              payment_id: instalment.id,
              invoice_id: instalment.invoice_id,
              amount_cents: instalment.amount_cents,
              reason_code: report.reason_code,
              fee_cents: report.fee_cents,
              fee_charged: charged && report.fee_cents > 0,
            },
          })),
        );
        const mails: ReturnedDebitMail[] = [];
        for (const { report, instalment } of fresh) {
          const to = await repository.customerMail(sql, instalment.customer_id);
          if (to)
            mails.push({
              to,
              paymentId: instalment.id,
              invoiceId: instalment.invoice_id,
              amountCents: instalment.amount_cents,
              reasonCode: report.reason_code,
              feeCents: report.fee_cents,
              feeCharged: charged && report.fee_cents > 0,
            });
        }
        const created = createdKeys.size;
        const updated = written.length - created;
        return { counts: { created, updated, unchanged: reports.length - written.length }, mails };
      });

      // After the commit: the notification is stored whatever the mail server says.
      for (const mail of result.mails) {
        await sendReturnedDebitMail(deps.db, deps.mailer, tenantId, mail).catch((error: unknown) =>
          deps.log.error({ err: error, tenantId }, 'returned debit e-mail failed'),
        );
      }
      return result.counts;
    },
  };
}
