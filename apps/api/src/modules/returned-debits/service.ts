import { FieldError } from '@portal/contract';
import type { TBatchResult } from '@portal/contract/admin-ingestion';
import type { TReturnedDebitReport } from '@portal/contract/admin-returned-debits';
import type { Database, Sql, SqlQuery } from '../../db/database.ts';
import { createBatchErrors, repeatedIndexes } from '../ingestion/batch-checks.ts';
import { markInstalmentsReturned } from '../ingestion/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotifications } from '../notifications/service.ts';
import { retryDelaySeconds } from '../webhooks/retry.ts';
import { sendReturnedDebitMail } from './mail.ts';
import {
  createReturnedDebitRepository,
  tenantsWithDueReturnMails,
  type ReportedInstalment,
} from './repository.ts';

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
  paid: { id: string; fee_cents: number }[],
): Promise<void> {
  return paid.length === 0 ? Promise.resolve() : repository.recordFeesPaid(sql, attemptId, paid);
}

/**
 * The provider collected these instalments again (`POST /admin/instalments/status` paid; the
 * ingestion module, in its batch's transaction, before it sets them paid): where one was returned
 * and its fee charged, that collection paid the fee, which the statement then keeps charged on the
 * return's day and credits with the collection (the balance asks for it no more).
 */
export function recordReturnFeesCollected(
  sql: SqlQuery,
  collected: { invoice_id: string; seq: number; paid_date: string }[],
): Promise<void> {
  return repository.recordFeesCollected(sql, collected);
}

/** The reason a return reported without one carries: "the bank gave no reason" (ISO 20022). */
export const genericReturnReason = 'MS03';

type Log = { error: (obj: object, msg: string) => void };

/**
 * A return dated before the payment that settled the instalment, or before a return recorded
 * already: the bank's file of an earlier presentation, or a date corrected. It is recorded, but
 * undoes nothing that followed it: a debit is returned after it was collected, so it cannot reopen
 * an instalment paid since (session 39: the customer was asked again, and e-mailed, to pay what a
 * later presentation had collected), nor tell the customer again of a return they heard of.
 */
function olderThanWhatFollowed(instalment: ReportedInstalment, returnDate: string): boolean {
  const paidSince =
    instalment.status === 'paid' &&
    instalment.paid_date !== null &&
    returnDate < instalment.paid_date;
  return paidSince || instalment.return_dates.some((d) => d > returnDate);
}

/**
 * Stores returns of locked, returnable instalments and tells the customer of each new one, in the
 * caller's transaction: the instalment becomes `returned` (owed again), the notification is
 * written and the e-mail queued (sent after the commit by `createReturnMailSender`, retried until
 * the mail server takes it). `reopen` (the status route: instalments not returned now) tells of
 * every item even when its return of the same day was stored before (returned, paid, returned
 * again); otherwise only a return never stored is new, so a replay tells nobody. Answers what was
 * written and the ids of the returns whose e-mail is due.
 */
async function applyReturns(
  sql: Sql,
  items: { instalment: ReportedInstalment; report: TReturnedDebitReport }[],
  reopen: boolean,
): Promise<{ created: number; written: number; mailIds: string[] }> {
  if (items.length === 0) return { created: 0, written: 0, mailIds: [] };
  const written = await repository.upsertReturns(
    sql,
    items.map(({ instalment, report }) => ({
      instalment_id: instalment.id,
      customer_id: instalment.customer_id,
      return_date: report.return_date,
      reason_code: report.reason_code,
      fee_cents: report.fee_cents,
    })),
  );
  const createdKeys = new Set(
    written.filter((w) => w.created).map((w) => `${w.instalment_id} ${w.return_date}`),
  );
  const fresh = reopen
    ? items
    : items.filter(
        ({ instalment, report }) =>
          createdKeys.has(`${instalment.id} ${report.return_date}`) &&
          !olderThanWhatFollowed(instalment, report.return_date),
      );
  // The collection each new return undoes stays on the statement, on its day: clearing the
  // instalment's paid date below took it out of the month it was made in (a closed month changed).
  // Only the earliest new return of an instalment undid it: a later one of the same batch (an ERP
  // catching up on two bank files) undid a re-presentation never reported, not this collection
  // (session 40 review: June was credited twice).
  const earliest = new Map<string, string>();
  for (const { instalment, report } of fresh) {
    const seen = earliest.get(instalment.id);
    if (seen === undefined || report.return_date < seen)
      earliest.set(instalment.id, report.return_date);
  }
  await repository.recordCollections(
    sql,
    fresh.flatMap(({ instalment, report }) =>
      instalment.status === 'paid' &&
      instalment.paid_date !== null &&
      earliest.get(instalment.id) === report.return_date
        ? [
            {
              instalment_id: instalment.id,
              return_date: report.return_date,
              collected_on: instalment.paid_date,
              collected_cents: instalment.amount_cents,
              collected_method: instalment.method,
            },
          ]
        : [],
    ),
  );
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
  const mailIds = await repository.returnIds(
    sql,
    fresh.map((f) => ({ instalment_id: f.instalment.id, return_date: f.report.return_date })),
  );
  await repository.queueMails(sql, mailIds);
  return { created: createdKeys.size, written: written.length, mailIds };
}

/**
 * `POST /admin/instalments/status` with `returned` (the ingestion module, in its batch's
 * transaction; the instalments are locked and checked there): each instalment not `returned` now
 * gets a return of `returnDate` with the change's reason (`MS03`, no reason given, when absent)
 * and fee (0), told exactly like one reported through `POST /admin/instalments/returns`. One that
 * is `returned` already changes nothing and tells nobody (a replay). Answers how many changed and
 * the returns whose e-mail is due (`createReturnMailSender().sendTenant` after the commit).
 */
export async function returnInstalmentsFromStatus(
  sql: Sql,
  changes: { invoice_id: string; seq: number; reason_code?: string; fee_cents?: number }[],
  returnDate: string,
): Promise<{ updated: number; mailIds: string[] }> {
  if (changes.length === 0) return { updated: 0, mailIds: [] };
  const found = await repository.lockInstalments(sql, changes);
  const byKey = new Map(found.map((f) => [keyOf(f.invoice_id, f.seq), f]));
  const items = changes.flatMap((c) => {
    const instalment = byKey.get(keyOf(c.invoice_id, c.seq));
    if (!instalment || instalment.status === 'returned') return [];
    const report: TReturnedDebitReport = {
      invoice_id: c.invoice_id,
      seq: c.seq,
      return_date: returnDate,
      reason_code: c.reason_code ?? genericReturnReason,
      fee_cents: c.fee_cents ?? 0,
    };
    return [{ instalment, report }];
  });
  const applied = await applyReturns(sql, items, true);
  return { updated: items.length, mailIds: applied.mailIds };
}

/**
 * The outbox of return e-mails (`instalment_returns.mail_*`, migration 027): each one due is
 * claimed (SKIP LOCKED, so two instances never send one at once), sent, and marked sent; a failed
 * send is tried again with back-off by the `returned-debit-mail` job, up to `maxTries`.
 */
export function createReturnMailSender(deps: {
  db: Database;
  mailer: Mailer;
  log: Log;
  batchSize?: number;
  leaseSeconds?: number;
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  maxTries?: number;
}) {
  const {
    db,
    batchSize = 50,
    leaseSeconds = 300,
    retryBaseSeconds = 60,
    retryMaxSeconds = 6 * 3600,
    maxTries = 20,
  } = deps;

  /** Sends the tenant's due return e-mails (only `ids` when given); answers how many went. */
  async function sendTenant(tenantId: string, ids?: string[]): Promise<number> {
    if (ids?.length === 0) return 0;
    let sent = 0;
    for (;;) {
      const claimed = await db.withTenant(tenantId, (sql) =>
        repository.claimMails(sql, { batchSize, leaseSeconds, ...(ids ? { ids } : {}) }),
      );
      for (const mail of claimed) {
        try {
          if (mail.email) {
            await sendReturnedDebitMail(db, deps.mailer, tenantId, {
              to: { email: mail.email, language: mail.language ?? 'es' },
              paymentId: mail.instalment_id,
              invoiceId: mail.invoice_id,
              amountCents: mail.amount_cents,
              reasonCode: mail.reason_code,
              feeCents: mail.fee_cents,
              feeCharged: mail.charge_return_fee && mail.fee_cents > 0,
            });
            sent += 1;
          }
          await db.withTenant(tenantId, (sql) => repository.markMailSent(sql, mail.id));
        } catch (error) {
          deps.log.error({ err: error, tenantId }, 'returned debit e-mail failed; will retry');
          await db.withTenant(tenantId, (sql) =>
            repository.markMailFailed(sql, {
              returnId: mail.id,
              error: error instanceof Error ? error.message : String(error),
              retrySeconds: retryDelaySeconds(mail.tries, {
                baseSeconds: retryBaseSeconds,
                maxSeconds: retryMaxSeconds,
              }),
              maxTries,
            }),
          );
        }
      }
      if (ids || claimed.length < batchSize) return sent;
    }
  }

  return {
    sendTenant,
    /** Every tenant's due return e-mails (the periodic job). */
    async sendDue(): Promise<number> {
      let sent = 0;
      for (const tenantId of await db.withOwner(tenantsWithDueReturnMails))
        sent += await sendTenant(tenantId);
      return sent;
    },
  };
}

/**
 * Returned direct debits reported by the provider (issue 23, item 4). A report is keyed by the
 * instalment and the return date: a new one makes the instalment `returned` (owed again), tells
 * the customer (notification and queued e-mail in the same transaction, the e-mail sent after it
 * and retried until sent) and is counted `created`; the same report again changes nothing and
 * tells nobody; a corrected reason or fee is `updated` and tells nobody either. All or nothing,
 * like every ingestion batch.
 */
export function createReturnedDebitService(deps: { db: Database; mailer: Mailer; log: Log }) {
  const mails = createReturnMailSender(deps);
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
        const items: { instalment: ReportedInstalment; report: TReturnedDebitReport }[] = [];
        reports.forEach((r, i) => {
          const stored = byKey.get(keyOf(r.invoice_id, r.seq));
          if (!stored) errors.add(`returns.${i}`, FieldError.unknownInstalment);
          // The gateway's answer settles a card payment in progress: a return now would race it.
          else if (stored.in_attempt) errors.add(`returns.${i}`, FieldError.instalmentLocked);
          // Cancelled, or of a cancelled invoice: owed by nobody, shown cancelled everywhere (before
          // session 37 the return of an instalment of a cancelled invoice was taken, and its
          // customer asked to pay it plus the fee, which the portal then refused).
          else if (stored.status === 'cancelled' || stored.invoice_cancelled)
            errors.add(`returns.${i}`, FieldError.invalidValue);
          // Paid by card (or Bizum) in the portal: the debit that came back is not what paid it
          // (before: reopened, owed a second time with the bank's fee). A replay of a return
          // recorded before that payment changes nothing, as for any instalment.
          else if (stored.paid_in_portal && !stored.return_dates.includes(r.return_date))
            errors.add(`returns.${i}`, FieldError.instalmentLocked);
          else items.push({ instalment: stored, report: r });
        });
        errors.throwIfAny();
        const applied = await applyReturns(sql, items, false);
        const updated = applied.written - applied.created;
        return {
          counts: {
            created: applied.created,
            updated,
            unchanged: reports.length - applied.written,
          },
          mailIds: applied.mailIds,
        };
      });

      // After the commit: the notification is stored whatever the mail server says, and the
      // e-mail stays due until it is sent (the `returned-debit-mail` job tries again).
      await mails
        .sendTenant(tenantId, result.mailIds)
        .catch((error: unknown) =>
          deps.log.error({ err: error, tenantId }, 'returned debit e-mail failed'),
        );
      return result.counts;
    },
  };
}
