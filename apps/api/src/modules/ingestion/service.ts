import { signInEmailMoved } from '../auth/email-moved.ts';
import type { Revocations } from '../auth/revocations.ts';
import { ErrorCode, FieldError } from '@portal/contract';
import type {
  TBatchResult,
  TIngestCustomer,
  TIngestCustomersResult,
  TIngestNotification,
  TInstalmentStatusChange,
  TInviteCustomersResult,
  TPaymentMethodRequestsResponse,
  TReviewResponse,
} from '@portal/contract/admin-ingestion';
import type { Database, Sql } from '../../db/database.ts';
import { textArray } from '../../db/text-array.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import {
  checkAgainstStored,
  createBatchErrors,
  repeatedIndexes,
  type BatchErrors,
  type ExistingInstalment,
} from './batch-checks.ts';
import {
  createIngestionRepository,
  customerColumns,
  type CustomerRecord,
  type InstalmentKey,
} from './repository.ts';
import { judgeProviderWrite } from '../customers/service.ts';
import type { InvoiceBatch } from './prepare-invoices.ts';
import {
  createNotification,
  createNotifications,
  createOrganisationNotifications,
} from '../notifications/service.ts';
import { pageOf } from '../../lib/paging.ts';
import { todayIso } from '../../lib/dates.ts';

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
/** Stored invoices checked between two turns of the event loop (about 3 ms of work). */
const checkSlice = 1_000;
const giveTheLoopBack = () => new Promise<void>((resolve) => setImmediate(resolve));
const instalmentKey = (invoiceId: string, seq: number) => `${invoiceId}\u0000${seq}`;

/**
 * The provider's batches. Each call checks the whole batch (its own rules, then against what is
 * stored, under row locks) and applies it in ONE transaction, or throws the 422 with every
 * item's errors and writes nothing. Counts: `created`, `updated` (something stored differed),
 * `unchanged` (the item was already exactly so: a replay).
 */
/**
 * A `returned` state is a returned direct debit (the returned-debits module, routes.ts wires it):
 * recorded and told in the batch's transaction, its e-mail sent after the commit.
 */
export type StatusReturns = {
  apply(
    sql: Sql,
    changes: { invoice_id: string; seq: number; reason_code?: string; fee_cents?: number }[],
    returnDate: string,
  ): Promise<{ updated: number; mailIds: string[] }>;
  sendMails(tenantId: string, ids: string[]): Promise<unknown>;
  /** Instalments about to be set `paid`: a returned one's charged fee is paid by that collection. */
  feesCollected(
    sql: Sql,
    collected: { invoice_id: string; seq: number; paid_date: string }[],
  ): Promise<void>;
};

/** Ids of the customers named by `codes`; an unknown code is an error at `path(i)`. */
async function resolveCustomerCodes(
  repository: ReturnType<typeof createIngestionRepository>,
  sql: Sql,
  codes: readonly string[],
  path: (i: number) => string,
  errors: BatchErrors,
): Promise<Map<string, string>> {
  const ids = await repository.customerIds(sql, unique(codes));
  codes.forEach((code, i) => {
    if (!ids.has(code)) errors.add(path(i), FieldError.unknownCustomer);
  });
  return ids;
}

/**
 * The invoice batch (`PUT /admin/invoices`) on its own: what the heavy-work pool's threads run
 * with a connection pool of their own (workers/tasks.ts), so that its JavaScript, its garbage and
 * its socket writes never hold the event loop that answers the other tenants; the service below
 * runs the same code in process (the embedded database, which lives in the main thread).
 */
export function createInvoiceIngestion({ db }: { db: Database }) {
  const repository = createIngestionRepository();
  const resolveCustomers = (
    sql: Sql,
    codes: readonly string[],
    path: (i: number) => string,
    errors: BatchErrors,
  ) => resolveCustomerCodes(repository, sql, codes, path, errors);
  return {
    /**
     * An invoice batch, already parsed, validated and checked on its own by `prepareInvoices` (on
     * the heavy-work pool): here only the checks against what is stored, and the statements.
     */
    async ingestInvoices(tenantId: string, batch: InvoiceBatch): Promise<TBatchResult> {
      const errors = createBatchErrors();
      for (const [path, codes] of Object.entries(batch.errors))
        for (const code of codes) errors.add(path, code);
      const { ids } = batch;

      return db.withTenant(tenantId, async (sql) => {
        await repository.lockTenantBatches(sql);
        const customerIds = await resolveCustomers(
          sql,
          batch.customerCodes,
          (i) => `invoices.${i}.customer_code`,
          errors,
        );
        const stored = await repository.existingInvoices(sql, batch.idsArray);
        // Written once for the six statements below that take it.
        const storedIds = textArray(stored.keys());
        const instalmentsOf = new Map<string, ExistingInstalment[]>();
        for (const e of await repository.lockInstalments(sql, storedIds)) {
          const list = instalmentsOf.get(e.invoice_id) ?? [];
          list.push(e);
          instalmentsOf.set(e.invoice_id, list);
        }
        const sentInstalments = (i: number) => {
          const sent: { seq: number; amount_cents: number }[] = [];
          for (let k = batch.instalmentStart[i] ?? 0; k < (batch.instalmentStart[i + 1] ?? 0); k++)
            sent.push({ seq: batch.seqs[k] ?? 0, amount_cents: batch.amounts[k] ?? 0 });
          return sent;
        };
        // Only invoices already stored have anything to check, remove or update.
        const removedInstalments: InstalmentKey[] = [];
        // How many sent instalments are stored already: when all are (a batch that corrects
        // amounts or dates), the insert has nothing to do, and when none is, the update; each
        // costs PostgreSQL ~150-500 ms on 10,000 rows even when it writes nothing.
        let storedSent = 0;
        for (let i = 0; i < ids.length; i++) {
          // 10,000 stored invoices took 30-50 ms here in one piece: other tenants' requests wait
          // a slice at most (bench/isolation.ts).
          if (i > 0 && i % checkSlice === 0) await giveTheLoopBack();
          const id = ids[i] ?? '';
          const storedCustomer = stored.get(id);
          if (storedCustomer === undefined) continue;
          const customerId = customerIds.get(batch.customerCodes[i] ?? '');
          const instalments = sentInstalments(i);
          const storedInstalments = instalmentsOf.get(id) ?? [];
          checkAgainstStored(
            { instalments, cancelled: batch.cancelled[i] ?? false },
            `invoices.${i}`,
            {
              customerChanged: customerId !== undefined && customerId !== storedCustomer,
              instalments: storedInstalments,
            },
            errors,
          );
          // The batch holds each invoice's complete instalments (and lines): the others go.
          const sentSeqs = new Set(instalments.map((e) => e.seq));
          for (const e of storedInstalments)
            if (!sentSeqs.has(e.seq)) removedInstalments.push({ invoice_id: id, seq: e.seq });
            else storedSent += 1;
        }
        errors.throwIfAny();

        // The statements answer only the stored invoices they changed: new ones count as created.
        const touched = new Set<string>();
        const touch = (written: string[]) => written.forEach((id) => touched.add(id));
        touch(await repository.upsertInvoices(sql, batch.invoicesJson, storedIds));
        touch(
          await repository.deleteUnsentLines(sql, storedIds, batch.lineIdsArray, batch.lineNos),
        );
        if (batch.lineNos.length > 0)
          touch(await repository.upsertLines(sql, batch.linesJson, storedIds));
        // Instalments: those left out go (checked removable), stored ones change, new ones come.
        touch(await repository.deleteInstalments(sql, removedInstalments));
        if (storedSent > 0)
          touch(await repository.updateInstalments(sql, batch.instalmentsJson, storedIds));
        if (storedSent < batch.seqs.length)
          touch(await repository.insertInstalments(sql, batch.instalmentsJson, storedIds));

        // A new invoice is news for its customer (a cancelled one is not); in this transaction.
        const fresh = ids.filter((id) => !stored.has(id));
        await createNotifications(
          sql,
          (await repository.liveInvoiceCustomers(sql, fresh)).map((invoice) => ({
            customerId: invoice.customer_id,
            type: 'invoice_new' as const,
            params: { invoice_id: invoice.id },
          })),
        );

        const created = fresh.length;
        const updated = ids.filter((id) => stored.has(id) && touched.has(id)).length;
        return { created, updated, unchanged: ids.length - created - updated };
      });
    },
  };
}

export function createIngestionService({
  db,
  returns,
  revocations,
}: {
  db: Database;
  returns: StatusReturns;
  /** Told of the sessions a customer's move to another address ended, once committed. */
  revocations?: Pick<Revocations, 'revoked'>;
}) {
  const repository = createIngestionRepository();

  const resolveCustomers = (
    sql: Sql,
    codes: readonly string[],
    path: (i: number) => string,
    errors: BatchErrors,
  ) => resolveCustomerCodes(repository, sql, codes, path, errors);

  return {
    ...createInvoiceIngestion({ db }),
    async ingestCustomers(
      tenantId: string,
      customers: TIngestCustomer[],
    ): Promise<TIngestCustomersResult> {
      const errors = createBatchErrors();
      for (const i of repeatedIndexes(customers.map((c) => c.code)))
        errors.add(`customers.${i}.code`, FieldError.duplicate);

      const { result, ended } = await db.withTenant(tenantId, async (sql) => {
        // Lowered as the database lowers them, for every comparison below.
        const emails = await repository.lowerEmails(
          sql,
          customers.map((c) => c.email),
        );
        for (const i of repeatedIndexes(emails))
          errors.add(`customers.${i}.email`, FieldError.duplicate);
        await repository.lockTenantBatches(sql);
        const stored = await repository.customersByCodeOrEmail(
          sql,
          customers.map((c) => c.code),
          emails,
        );
        const existingCodes = new Set(stored.map((s) => s.code));
        const holderOf = new Map(stored.map((s) => [s.email, s.code]));
        customers.forEach((c, i) => {
          const holder = holderOf.get(emails[i] ?? '');
          if (holder !== undefined && holder !== c.code)
            errors.add(`customers.${i}.email`, FieldError.emailTaken);
        });
        errors.throwIfAny();

        // What the customer changed in the portal later than the provider's data is kept, and
        // said in `kept` (docs/decisions/035).
        const { keep, kept } = await judgeProviderWrite(
          sql,
          customers.filter((c) => existingCodes.has(c.code)),
        );
        const records = customers.map((c) => {
          const record: CustomerRecord = { code: c.code } as CustomerRecord;
          for (const column of customerColumns) record[column] = c[column];
          for (const [field, value] of keep.get(c.code) ?? []) record[field] = value;
          return record;
        });
        const written = await repository.upsertCustomers(sql, records);
        // A customer moved to another sign-in address: the old mailbox's links and the provider
        // accounts it vouched for no longer open the account (session 34's review).
        const newEmailOf = new Map(customers.map((c, i) => [c.code, emails[i]]));
        const ended = await signInEmailMoved(
          sql,
          stored
            .filter((s) => newEmailOf.has(s.code) && newEmailOf.get(s.code) !== s.email)
            .map((s) => s.id),
        );
        const created = customers.filter((c) => !existingCodes.has(c.code));
        const invited = await repository.queueInvitations(
          sql,
          created.filter((c) => c.send_invitation).map((c) => c.code),
        );
        const updated = written.filter((code) => existingCodes.has(code)).length;
        return {
          result: {
            created: created.length,
            updated,
            unchanged: customers.length - created.length - updated,
            invited,
            kept,
          },
          ended,
        };
      });
      await revocations?.revoked(tenantId, ended);
      return result;
    },

    /**
     * Invites again customers who have no password: their invitation goes back to the outbox, due
     * now. Unknown or repeated codes reject the call whole; a customer who already has a password
     * is listed in `has_password` and not invited (that is not an error: the goal is reached).
     */
    async inviteCustomers(tenantId: string, codes: string[]): Promise<TInviteCustomersResult> {
      const errors = createBatchErrors();
      for (const i of repeatedIndexes(codes)) errors.add(`codes.${i}`, FieldError.duplicate);

      return db.withTenant(tenantId, async (sql) => {
        const found = new Map(
          (await repository.customersForInvitation(sql, unique(codes))).map((c) => [c.code, c]),
        );
        codes.forEach((code, i) => {
          if (!found.has(code)) errors.add(`codes.${i}`, FieldError.unknownCustomer);
        });
        errors.throwIfAny();
        const invitees = codes.flatMap((code) => {
          const c = found.get(code);
          return c && !c.has_password ? [c.id] : [];
        });
        await repository.requeueInvitations(sql, invitees);
        return {
          queued: invitees.length,
          has_password: codes.filter((code) => found.get(code)?.has_password),
        };
      });
    },

    async changeInstalmentStatus(
      tenantId: string,
      changes: TInstalmentStatusChange[],
    ): Promise<TBatchResult> {
      const errors = createBatchErrors();
      for (const i of repeatedIndexes(changes.map((c) => instalmentKey(c.invoice_id, c.seq))))
        errors.add(`changes.${i}.seq`, FieldError.duplicate);

      const result = await db.withTenant(tenantId, async (sql) => {
        const found = await repository.lockInstalmentsByKey(sql, changes);
        const byKey = new Map(found.map((f) => [instalmentKey(f.invoice_id, f.seq), f]));
        changes.forEach((c, i) => {
          const stored = byKey.get(instalmentKey(c.invoice_id, c.seq));
          if (!stored) errors.add(`changes.${i}`, FieldError.unknownInstalment);
          // The gateway's answer settles it: a state set now could contradict that answer.
          else if (stored.in_attempt)
            errors.add(`changes.${i}.status`, FieldError.instalmentLocked);
          // A cancelled instalment is owed by nobody: no debit of it can come back (as /returns).
          else if (
            c.status === 'returned' &&
            (stored.status === 'cancelled' || stored.invoice_cancelled)
          )
            errors.add(`changes.${i}.status`, FieldError.invalidValue);
          // Paid by card (or Bizum) in the portal: neither a debit coming back nor the back
          // office's word undoes that payment (set back to pending or cancelled, the customer owed
          // again what they had paid; session 36). Its own record of it as paid is taken (200) but
          // changes nothing: the payment keeps the gateway's day (`setStatuses`).
          else if (c.status !== 'paid' && stored.paid_in_portal)
            errors.add(`changes.${i}.status`, FieldError.instalmentLocked);
        });
        errors.throwIfAny();
        // Before they are set paid: a returned debit collected again pays the fee it charged
        // (read from the instalment still `returned`), which the statement keeps on its day.
        await returns.feesCollected(
          sql,
          changes.flatMap((c) =>
            c.status === 'paid' && c.paid_date
              ? [{ invoice_id: c.invoice_id, seq: c.seq, paid_date: c.paid_date }]
              : [],
          ),
        );
        const updated = await repository.setStatuses(
          sql,
          changes
            .filter((c) => c.status !== 'returned')
            .map((c) => ({
              invoice_id: c.invoice_id,
              seq: c.seq,
              status: c.status,
              paid_date: c.paid_date ?? null,
            })),
        );
        // Returned by the bank: a return like one of POST /admin/instalments/returns (reason,
        // fee, notification, e-mail), dated today; one already `returned` is left as it is.
        const returned = await returns.apply(
          sql,
          changes
            .filter((c) => c.status === 'returned')
            .map((c) => ({
              invoice_id: c.invoice_id,
              seq: c.seq,
              ...(c.return_reason_code !== undefined ? { reason_code: c.return_reason_code } : {}),
              ...(c.return_fee_cents !== undefined ? { fee_cents: c.return_fee_cents } : {}),
            })),
          todayIso(),
        );
        const changed = updated + returned.updated;
        return {
          counts: { created: 0, updated: changed, unchanged: changes.length - changed },
          mailIds: returned.mailIds,
        };
      });
      // After the commit: the e-mails of the returns (kept due and retried when this fails).
      await returns.sendMails(tenantId, result.mailIds);
      return result.counts;
    },

    async ingestNotifications(
      tenantId: string,
      notifications: TIngestNotification[],
    ): Promise<TBatchResult> {
      const errors = createBatchErrors();
      for (const i of repeatedIndexes(notifications.map((n) => n.id)))
        errors.add(`notifications.${i}.id`, FieldError.duplicate);

      return db.withTenant(tenantId, async (sql) => {
        const customerIds = await resolveCustomers(
          sql,
          notifications.map((n) => n.customer_code),
          (i) => `notifications.${i}.customer_code`,
          errors,
        );
        errors.throwIfAny();
        const created = await createOrganisationNotifications(
          sql,
          notifications.map((n) => ({
            external_id: n.id,
            customer_id: customerIds.get(n.customer_code) ?? '',
            type: n.type,
            title: n.title,
            message: n.message,
            link: n.link ?? null,
          })),
        );
        return { created, updated: 0, unchanged: notifications.length - created };
      });
    },

    /** The customers' requests, newest first, a page at a time (`before` is the last id seen). */
    async listRequests(
      tenantId: string,
      query: {
        status?: 'pending' | 'approved' | 'rejected' | undefined;
        limit: number;
        before?: string | undefined;
      },
    ): Promise<TPaymentMethodRequestsResponse> {
      const rows = await db.withTenant(tenantId, (sql) =>
        repository.listRequests(sql, {
          status: query.status,
          limit: query.limit + 1,
          before: query.before,
        }),
      );
      const { page, nextCursor } = pageOf(rows, query.limit);
      return {
        requests: page.map((r) => ({
          request_id: r.id,
          kind: r.kind,
          status: r.status,
          customer_code: r.customer_code,
          payment_method: {
            id: r.method_id,
            kind: r.method_kind,
            alias: r.alias,
            holder: r.holder,
            card_masked: r.card_masked,
            iban: r.iban,
            nif: r.nif,
            entity: r.entity,
            deleted: r.method_deleted,
          },
          created_at: r.created_at.toISOString(),
          reviewed_at: r.reviewed_at ? r.reviewed_at.toISOString() : null,
        })),
        next_cursor: nextCursor,
      };
    },

    /**
     * The provider's answer to a customer's request. Answering again with the same status changes
     * nothing; a different answer to a reviewed request is a conflict.
     */
    async reviewRequest(
      tenantId: string,
      requestId: string,
      status: 'approved' | 'rejected',
    ): Promise<TReviewResponse> {
      return db.withTenant(tenantId, async (sql) => {
        const request = await repository.findRequestForUpdate(sql, requestId);
        if (!request) throw notFound('Payment method request');
        const answer = {
          request_id: request.id,
          kind: request.kind,
          payment_method_id: request.payment_method_id,
          status,
        };
        if (request.status === status) return { ...answer, changed: false };
        if (request.status !== 'pending')
          throw new AppError(409, ErrorCode.conflict, `Request already ${request.status}`);
        if (status === 'approved') {
          if (!request.method_live)
            throw new AppError(409, ErrorCode.conflict, 'The payment method was deleted');
          if (request.kind === 'main_change') {
            await repository.makeMain(sql, request.customer_id, request.payment_method_id);
          } else {
            const activated = await repository.activate(sql, request.payment_method_id);
            if (activated) {
              await createNotification(sql, {
                customerId: request.customer_id,
                type: 'method_verified',
                params: { alias: activated.alias },
              });
            }
          }
        }
        await repository.answerRequest(sql, request.id, status);
        await createNotification(sql, {
          customerId: request.customer_id,
          type: 'request_reviewed',
          params: { request: request.kind, answer: status },
        });
        return { ...answer, changed: true };
      });
    },
  };
}

/**
 * Instalments whose direct debit the bank returned (the returned-debits module, in its
 * transaction): owed again, with no paid date. Answers how many changed.
 */
export function markInstalmentsReturned(sql: Sql, keys: InstalmentKey[]): Promise<number> {
  return createIngestionRepository().setStatuses(
    sql,
    keys.map((k) => ({
      invoice_id: k.invoice_id,
      seq: k.seq,
      status: 'returned',
      paid_date: null,
    })),
  );
}
