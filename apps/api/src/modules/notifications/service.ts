import {
  isNotificationLink,
  pageSize,
  ZPortalNotificationEvent,
  type TNotification,
  type TNotificationsResponse,
  type TPortalNotificationEvent,
} from '@portal/contract';
import { appPaths } from '@portal/contract/app-paths';
import type { Database, SqlQuery } from '../../db/database.ts';
import {
  createNotificationRepository,
  type NotificationRow,
  type OrganisationNotificationRecord,
} from './repository.ts';

/**
 * The one way a notification comes to exist (CONVENTIONS.md "one writer per table"). The portal's
 * own events are stored as a type with parameters, never as text: the web app words them in the
 * reader's language (PRODUCT.md). The organisation's notifications (ingestion API) keep their own
 * texts. Callers pass their transaction, so a notification exists exactly when its event does.
 */
const repository = createNotificationRepository();

export type NewNotification = { customerId: string } & TPortalNotificationEvent;

/**
 * The payment confirmation of exactly one instalment (a returned direct debit), with its invoice
 * for the back link: the notification's "Acceder" and the e-mail's button.
 */
export function returnedDebitCheckinHref(paymentId: string, invoiceId: string): string {
  const query = new URLSearchParams({ payments: paymentId, invoiceId });
  return `${appPaths.paymentCheckin}?${query.toString()}`;
}

/** Where "Acceder" leads, decided once here from the type and its parameters. */
function notificationLink(event: TPortalNotificationEvent): string {
  switch (event.type) {
    case 'payment_succeeded':
      return event.params.invoices.length === 1 && event.params.invoices[0] !== undefined
        ? appPaths.invoiceDetail.href(event.params.invoices[0])
        : appPaths.payments;
    case 'invoice_new':
      return appPaths.invoiceDetail.href(event.params.invoice_id);
    case 'method_verified':
    case 'request_reviewed':
      return appPaths.paymentMethods;
    case 'payment_failed':
    case 'payment_overpaid':
    case 'payment_refunded':
      return appPaths.payments;
    case 'fiscal_data_reviewed':
      return appPaths.userProfile;
    case 'debit_returned':
      return returnedDebitCheckinHref(event.params.payment_id, event.params.invoice_id);
    case 'invoice_thread_answered':
      return appPaths.invoiceThread.href(event.params.thread_id);
    case 'auto_pay_failed':
      // Paid by hand from the invoice, where the instalment still waits.
      return appPaths.invoiceDetail.href(event.params.invoice_id);
  }
}

/** Several at once (an invoice batch of thousands: one statement). */
export async function createNotifications(
  sql: SqlQuery,
  notifications: readonly NewNotification[],
): Promise<number> {
  return repository.insertPortal(
    sql,
    notifications.map(({ customerId, ...event }) => {
      // A wrong parameter is a bug of the caller: refused here, not stored for the app to guess.
      const checked = ZPortalNotificationEvent.parse(event);
      const link = notificationLink(checked);
      return {
        customer_id: customerId,
        type: checked.type,
        params: checked.params,
        link: isNotificationLink(link) ? link : null,
      };
    }),
  );
}

export async function createNotification(
  sql: SqlQuery,
  notification: NewNotification,
): Promise<void> {
  await createNotifications(sql, [notification]);
}

/** The organisation's notifications, each created once by its id; answers how many were new. */
export function createOrganisationNotifications(
  sql: SqlQuery,
  notifications: readonly OrganisationNotificationRecord[],
): Promise<number> {
  return repository.insertFromOrganisation(sql, notifications);
}

/**
 * A stored row as the inbox serves it: the portal's type and parameters when they are the
 * portal's (migration 011 gave the older rows theirs where their text allowed), else the stored
 * title and message as written.
 */
function toServedNotification(row: NotificationRow): TNotification {
  const base = {
    id: row.id,
    date: row.date,
    time: row.time,
    isRead: row.is_read,
    // A link stored before links.ts checked them is not passed on (nor followed by the app).
    link: isNotificationLink(row.link) ? row.link : null,
  };
  if (!row.external && row.params) {
    const event = ZPortalNotificationEvent.safeParse({ type: row.type, params: row.params });
    if (event.success) return { ...base, source: 'portal', ...event.data };
  }
  return {
    ...base,
    source: 'organisation',
    type: row.type,
    title: row.title ?? '',
    message: row.message ?? '',
  };
}

type Actor = { tenantId: string; customerId: string };

/**
 * The customer's inbox. Ids of someone else's notifications are silently ignored: the counts say
 * how many of the customer's own changed.
 */
export function createNotificationInbox(db: Database) {
  return {
    async list(
      actor: Actor,
      q: { filter?: 'all' | 'read' | 'unread' | undefined; page?: number | undefined },
    ): Promise<TNotificationsResponse> {
      const page = q.page ?? 1;
      const { rows, unread } = await db.withTenant(actor.tenantId, async (sql) => ({
        rows: await repository.list(sql, {
          customerId: actor.customerId,
          filter: q.filter ?? 'all',
          limit: pageSize + 1,
          offset: (page - 1) * pageSize,
        }),
        unread: await repository.unread(sql, actor.customerId),
      }));
      return {
        notifications: rows.slice(0, pageSize).map(toServedNotification),
        has_more: rows.length > pageSize,
        unread,
      };
    },

    unread(actor: Actor): Promise<number> {
      return db.readTenant(actor.tenantId, (sql) => repository.unread(sql, actor.customerId));
    },

    markRead(actor: Actor, ids: string[]): Promise<number> {
      return db.withTenant(actor.tenantId, (sql) =>
        repository.markRead(sql, actor.customerId, ids),
      );
    },

    remove(actor: Actor, ids: string[]): Promise<number> {
      return db.withTenant(actor.tenantId, (sql) => repository.remove(sql, actor.customerId, ids));
    },
  };
}
