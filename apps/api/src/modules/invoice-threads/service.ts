import {
  customerLimits,
  ErrorCode,
  pageSize,
  type TThreadMessage,
  type TThreadResponse,
  type TThreadsResponse,
  type TThreadStatus,
} from '@portal/contract';
import type {
  TAdminThread,
  TAdminThreadMessage,
  TAdminThreadMessagesResponse,
  TAdminThreadsResponse,
} from '@portal/contract/admin-invoice-threads';
import type { Database } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { pageOf } from '../../lib/paging.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotification } from '../notifications/service.ts';
import { webhookEvents } from '../webhooks/events.ts';
import { createAnswerMailer } from './answer-mail.ts';
import {
  createInvoiceThreadRepository,
  type AdminMessageRow,
  type AdminThreadRow,
  type MessageRow,
  type ThreadRow,
} from './repository.ts';

type Actor = { tenantId: string; customerId: string };
type Log = { error: (obj: object, msg: string) => void };

const repository = createInvoiceThreadRepository();

const toMessage = (m: MessageRow): TThreadMessage => ({
  id: m.id,
  author: m.author,
  author_name: m.author_name,
  body: m.body,
  created_at: m.created_at.toISOString(),
});

const toThread = (t: ThreadRow, organisationReadAt: Date | null): TThreadResponse['thread'] => ({
  id: t.id,
  invoice_id: t.invoice_id,
  status: t.status,
  created_at: t.created_at.toISOString(),
  organisation_read_at: organisationReadAt?.toISOString() ?? null,
});

const toAdminThread = (t: AdminThreadRow): TAdminThread => ({
  id: t.id,
  invoice_id: t.invoice_id,
  customer_code: t.customer_code,
  status: t.status,
  created_at: t.created_at.toISOString(),
  last_message_at: t.last_message_at.toISOString(),
  messages: t.messages,
  unread: t.unread,
});

const toAdminMessage = (m: AdminMessageRow): TAdminThreadMessage => ({
  ...toMessage(m),
  thread_id: m.thread_id,
  invoice_id: m.invoice_id,
  customer_code: m.customer_code,
});

const closed = () => new AppError(409, ErrorCode.invoiceThreadClosed, 'The conversation is closed');

/**
 * "Ask about this invoice" (issue 23, item 7): the customer's conversations with the organisation
 * about their own invoices, and the organisation's side through the ingestion API. Every message a
 * customer writes is told to the provider by webhook in its transaction; every answer creates a
 * portal notification in its transaction and an e-mail after it.
 */
export function createInvoiceThreadService(deps: {
  db: Database;
  mailer: Mailer;
  limiter: RateLimiter;
}) {
  const { db } = deps;
  const sendAnswerMail = createAnswerMailer(db, deps.mailer);

  /**
   * Messages per customer and hour: enough for a person, not for a flood of the organisation.
   * Counted once the invoice or conversation is known to be the customer's: a foreign id is the
   * same 404 whatever the count.
   */
  async function checkRate(actor: Actor): Promise<void> {
    const verdict = await deps.limiter.hit(
      `invoice-thread:${actor.tenantId}:${actor.customerId}`,
      customerLimits.invoiceThreadMessagesPerHour,
      3600,
    );
    if (!verdict.allowed) {
      throw new AppError(429, ErrorCode.rateLimited, 'Too many messages', {
        'retry-after': String(verdict.retryAfterSeconds),
      });
    }
  }

  return {
    async list(
      actor: Actor,
      q: { invoice_id?: string | undefined; page?: number | undefined },
    ): Promise<TThreadsResponse> {
      const page = q.page ?? 1;
      const { rows, unread } = await db.withTenant(actor.tenantId, async (sql) => ({
        rows: await repository.listOwn(sql, {
          customerId: actor.customerId,
          invoiceId: q.invoice_id ?? null,
          limit: pageSize + 1,
          offset: (page - 1) * pageSize,
        }),
        unread: await repository.unreadCount(sql, actor.customerId),
      }));
      return {
        threads: rows.slice(0, pageSize).map((r) => ({
          id: r.id,
          invoice_id: r.invoice_id,
          status: r.status,
          created_at: r.created_at.toISOString(),
          unread: r.unread,
          last_message: toMessage({
            id: r.last_id,
            thread_id: r.id,
            author: r.last_author,
            author_name: r.last_author_name,
            body: r.last_body,
            created_at: r.last_created_at,
          }),
        })),
        has_more: rows.length > pageSize,
        unread,
      };
    },

    /** How many of the customer's conversations are unread (the menu's badge). */
    unread(actor: Actor): Promise<number> {
      return db.readTenant(actor.tenantId, (sql) => repository.unreadCount(sql, actor.customerId));
    },

    /**
     * Opens a conversation about one of the customer's invoices with its first message. While
     * one about the same invoice is open, the message goes there instead of opening a second.
     */
    async open(
      actor: Actor,
      body: { invoice_id: string; message: string },
    ): Promise<TThreadResponse> {
      const result = await db.withTenant(actor.tenantId, async (sql) => {
        if (!(await repository.isOwnInvoice(sql, actor.customerId, body.invoice_id)))
          return undefined;
        await checkRate(actor);
        const open = await repository.lockAndCountOpen(sql, actor.customerId);
        let thread = await repository.lockOpenByInvoice(sql, actor.customerId, body.invoice_id);
        if (!thread) {
          if (open >= customerLimits.openInvoiceThreads) {
            throw new AppError(409, ErrorCode.invoiceThreadLimit, 'Too many open conversations');
          }
          thread = await repository.insertThread(sql, actor.customerId, body.invoice_id);
        }
        const message = await repository.insertMessage(sql, {
          threadId: thread.id,
          author: 'customer',
          authorName: '',
          body: body.message,
        });
        await repository.markRead(sql, thread.id, 'customer');
        await webhookEvents.invoiceThreadMessageCreated(sql, message.id);
        return {
          thread,
          messages: await repository.messages(sql, thread.id),
          readAt: await repository.readAt(sql, thread.id, 'organisation'),
        };
      });
      if (!result) throw notFound('Invoice');
      return {
        thread: toThread(result.thread, result.readAt),
        messages: result.messages.map(toMessage),
      };
    },

    /** One of the customer's conversations; reading it marks it read. */
    async get(actor: Actor, threadId: string): Promise<TThreadResponse> {
      const result = await db.withTenant(actor.tenantId, async (sql) => {
        const thread = await repository.lockThread(sql, threadId, actor.customerId);
        if (!thread) return undefined;
        await repository.markRead(sql, thread.id, 'customer');
        return {
          thread,
          messages: await repository.messages(sql, thread.id),
          readAt: await repository.readAt(sql, thread.id, 'organisation'),
        };
      });
      if (!result) throw notFound('Conversation');
      return {
        thread: toThread(result.thread, result.readAt),
        messages: result.messages.map(toMessage),
      };
    },

    async reply(
      actor: Actor,
      threadId: string,
      text: string,
    ): Promise<{ message: TThreadMessage }> {
      const message = await db.withTenant(actor.tenantId, async (sql) => {
        const thread = await repository.lockThread(sql, threadId, actor.customerId);
        if (!thread) return undefined;
        if (thread.status !== 'open') throw closed();
        await checkRate(actor);
        const written = await repository.insertMessage(sql, {
          threadId: thread.id,
          author: 'customer',
          authorName: '',
          body: text,
        });
        await repository.markRead(sql, thread.id, 'customer');
        await webhookEvents.invoiceThreadMessageCreated(sql, written.id);
        return written;
      });
      if (!message) throw notFound('Conversation');
      return { message: toMessage(message) };
    },

    // ---- The organisation (ingestion API) ----

    async listForAdmin(
      tenantId: string,
      q: {
        status?: TThreadStatus | undefined;
        unread?: 'true' | 'false' | undefined;
        limit: number;
        before?: string | undefined;
      },
    ): Promise<TAdminThreadsResponse> {
      const rows = await db.readTenant(tenantId, (sql) =>
        repository.listForAdmin(sql, {
          status: q.status ?? null,
          unread: q.unread === undefined ? null : q.unread === 'true',
          limit: q.limit + 1,
          before: q.before ?? null,
        }),
      );
      const { page, nextCursor } = pageOf(rows, q.limit);
      return { threads: page.map(toAdminThread), next_cursor: nextCursor };
    },

    async messagesForAdmin(
      tenantId: string,
      q: { limit: number; since?: string | undefined; thread_id?: string | undefined },
    ): Promise<TAdminThreadMessagesResponse> {
      const rows = await db.readTenant(tenantId, (sql) =>
        repository.messagesForAdmin(sql, {
          since: q.since ?? null,
          threadId: q.thread_id ?? null,
          limit: q.limit,
        }),
      );
      return {
        messages: rows.map(toAdminMessage),
        // Forward paging: the last message read, or where the caller already was.
        next_cursor: rows.at(-1)?.id ?? q.since ?? null,
      };
    },

    /**
     * The organisation's answer: stored with the customer's notification in one transaction;
     * the e-mail follows, and one that cannot be sent is logged (the answer is already there).
     */
    async answer(
      tenantId: string,
      threadId: string,
      body: { message: string; author_name: string },
      log: Log,
    ): Promise<{ message: TAdminThreadMessage }> {
      const result = await db.withTenant(tenantId, async (sql) => {
        const thread = await repository.lockThread(sql, threadId, null);
        if (!thread) return undefined;
        if (thread.status !== 'open') throw closed();
        // The invoice was moved to another customer: this one can no longer read the conversation,
        // and would be told of an answer about someone else's invoice.
        if (!thread.invoice_is_theirs) {
          throw new AppError(
            409,
            ErrorCode.invoiceThreadClosed,
            "The invoice is no longer the customer's: the conversation takes no answers",
          );
        }
        const written = await repository.insertMessage(sql, {
          threadId: thread.id,
          author: 'organisation',
          authorName: body.author_name,
          body: body.message,
        });
        await repository.markRead(sql, thread.id, 'organisation');
        await createNotification(sql, {
          customerId: thread.customer_id,
          type: 'invoice_thread_answered',
          params: { thread_id: thread.id, invoice_id: thread.invoice_id },
        });
        const admin = await repository.findForAdmin(sql, thread.id);
        const to = await repository.findCustomerMail(sql, thread.customer_id);
        return { thread, written, admin, to };
      });
      if (!result?.admin) throw notFound('Conversation');
      if (result.to) {
        try {
          await sendAnswerMail({
            tenantId,
            to: result.to,
            threadId: result.thread.id,
            invoiceId: result.thread.invoice_id,
          });
        } catch (err) {
          log.error({ err }, 'invoice thread answer e-mail failed');
        }
      }
      return {
        message: toAdminMessage({
          ...result.written,
          invoice_id: result.thread.invoice_id,
          customer_code: result.admin.customer_code,
        }),
      };
    },

    /**
     * The organisation has read the conversation: its read marker moves to now (answering moves
     * it too), so its customer messages so far stop counting as unread. Closed ones too.
     */
    async markReadByOrganisation(
      tenantId: string,
      threadId: string,
    ): Promise<{ thread: TAdminThread }> {
      const thread = await db.withTenant(tenantId, async (sql) => {
        const found = await repository.lockThread(sql, threadId, null);
        if (!found) return undefined;
        await repository.markRead(sql, found.id, 'organisation');
        return repository.findForAdmin(sql, found.id);
      });
      if (!thread) throw notFound('Conversation');
      return { thread: toAdminThread(thread) };
    },

    async close(tenantId: string, threadId: string): Promise<{ thread: TAdminThread }> {
      const thread = await db.withTenant(tenantId, async (sql) => {
        const found = await repository.lockThread(sql, threadId, null);
        if (!found) return undefined;
        await repository.close(sql, found.id);
        return repository.findForAdmin(sql, found.id);
      });
      if (!thread) throw notFound('Conversation');
      return { thread: toAdminThread(thread) };
    },
  };
}
