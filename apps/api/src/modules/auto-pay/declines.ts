import type { Database, SqlQuery } from '../../db/database.ts';
import { createNotification } from '../notifications/service.ts';
import { retryDelaySeconds } from '../webhooks/retry.ts';
import type { AutoPayMailer } from './mail.ts';
import { createAutoPayRepository, tenantsWithDueDeclineMails } from './repository.ts';

/*
 * Telling the customer of a declined auto-pay charge, once per charge whichever path settles it:
 * the charge's own answer (chargeOnFile), the reconciliation's query, a notification, a release.
 * The payments module calls `recordAutoPayDecline` in the transaction that fails the attempt; the
 * charge row records the decline once (`declined_at`), with the notification, and its e-mail is
 * due from then on: sent after the commit, retried with back-off until the mail server takes it,
 * and marked sent so that it never goes twice.
 */

const repository = createAutoPayRepository();

/**
 * In the transaction that fails payment attempt `attemptId`: when it is an auto-pay charge whose
 * decline is not recorded yet, records it, notifies the customer and queues the e-mail. Answers
 * whether it did (false for every other attempt, and for the second path to settle the same one).
 */
export async function recordAutoPayDecline(
  sql: SqlQuery,
  attemptId: string,
  code: string,
): Promise<boolean> {
  const declined = await repository.markDeclined(sql, attemptId);
  if (!declined) return false;
  const settings = await repository.settings(sql);
  await createNotification(sql, {
    customerId: declined.customer_id,
    type: 'auto_pay_failed',
    params: {
      payment_id: declined.instalment_id,
      invoice_id: declined.invoice_id,
      amount_cents: declined.amount_cents,
      code: code.slice(0, 12),
      retry: declined.attempt_no <= (settings?.auto_pay_retries ?? 0),
    },
  });
  return true;
}

/** The outbox of decline e-mails (the `auto-pay` job retries them; a decline sends its own at once). */
export function createDeclineMailSender(deps: {
  db: Database;
  mail: AutoPayMailer;
  log: { error: (obj: object, msg: string) => void };
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

  /** Sends the due decline e-mails of a tenant (or only one charge's); answers how many went. */
  async function sendTenant(tenantId: string, chargeId?: string): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await db.withTenant(tenantId, async (sql) => {
        const rows = await repository.claimDeclineMails(sql, {
          batchSize,
          leaseSeconds,
          ...(chargeId ? { chargeId } : {}),
        });
        const settings = await repository.settings(sql);
        const withContact = [];
        for (const row of rows)
          withContact.push({ row, contact: await repository.contact(sql, row.customer_id) });
        return { rows: withContact, retries: settings?.auto_pay_retries ?? 0 };
      });
      for (const { row, contact } of claimed.rows) {
        try {
          if (contact) {
            await deps.mail.declined(tenantId, contact, {
              amountCents: row.amount_cents,
              invoiceId: row.invoice_id,
              retry: row.attempt_no <= claimed.retries,
            });
            sent += 1;
          }
          await db.withTenant(tenantId, (sql) => repository.markDeclineMailSent(sql, row.id));
        } catch (error) {
          deps.log.error({ err: error, tenantId }, 'auto-pay decline e-mail failed; will retry');
          await db.withTenant(tenantId, (sql) =>
            repository.markDeclineMailFailed(sql, {
              chargeId: row.id,
              retrySeconds: retryDelaySeconds(row.tries, {
                baseSeconds: retryBaseSeconds,
                maxSeconds: retryMaxSeconds,
              }),
              maxTries,
            }),
          );
        }
      }
      if (chargeId || claimed.rows.length < batchSize) return sent;
    }
  }

  return {
    sendTenant,
    /** Every tenant's due decline e-mails (the `auto-pay` sweep). */
    async sendDue(): Promise<number> {
      let sent = 0;
      for (const tenantId of await db.withOwner(tenantsWithDueDeclineMails))
        sent += await sendTenant(tenantId);
      return sent;
    },
  };
}
export type DeclineMailSender = ReturnType<typeof createDeclineMailSender>;
