import { z } from 'zod';
import { pageQueryFields } from './admin-paging.ts';
import { FieldError } from './errors.ts';
import { hasUnsafeText } from './input-safety.ts';
import { ZThreadAuthor, ZThreadMessageText, ZThreadStatus } from './invoice-threads.ts';
import type { TRouteDef } from './routes.ts';

/**
 * The organisation's side of the conversations about invoices (issue 23, item 7): read them,
 * answer, close. docs/ingestion.md "Conversations about invoices".
 */

// ---- The organisation's side (ingestion API, API key) ----

const exampleThreadId = '5f0c2b1e-3a4d-4c8e-9b7a-2d1e0f3c4b5a';
const exampleMessage = {
  id: '8a1d6c2e-9f3b-4e7a-b5c1-0d2e4f6a8b9c',
  thread_id: exampleThreadId,
  invoice_id: 'FV-2026-0012',
  customer_code: 'C-000789',
  author: 'customer' as const,
  author_name: '',
  body: '¿Por qué este mes la cuota es más alta?',
  created_at: '2026-11-26T10:15:00.000Z',
};
const exampleThread = {
  id: exampleThreadId,
  invoice_id: 'FV-2026-0012',
  customer_code: 'C-000789',
  status: 'open' as const,
  created_at: '2026-11-26T10:15:00.000Z',
  last_message_at: '2026-11-26T10:15:00.000Z',
  messages: 1,
  unread: 1,
};

/** A message as the provider reads it (and as the webhook `invoice_thread.message_created` tells). */
export const ZAdminThreadMessage = z
  .object({
    id: z.string(),
    thread_id: z.string(),
    invoice_id: z.string(),
    customer_code: z.string(),
    author: ZThreadAuthor,
    author_name: z.string(),
    body: z.string(),
    created_at: z.string(),
  })
  .meta({ examples: [exampleMessage] });
export type TAdminThreadMessage = z.infer<typeof ZAdminThreadMessage>;

export const ZAdminThread = z
  .object({
    id: z.string(),
    invoice_id: z.string(),
    customer_code: z.string(),
    status: ZThreadStatus,
    created_at: z.string(),
    last_message_at: z.string(),
    /** How many messages it holds. */
    messages: z.number().int(),
    /**
     * How many of the customer's messages came after the organisation last read it (answering
     * or `POST .../read`); 0 when it is read.
     */
    unread: z.number().int(),
  })
  .meta({ examples: [exampleThread] });
export type TAdminThread = z.infer<typeof ZAdminThread>;

export const ZAdminThreadsQuery = z.object({
  status: ZThreadStatus.optional().meta({
    description: 'Only conversations in this state',
    examples: ['open'],
  }),
  unread: z
    .enum(['true', 'false'], FieldError.invalidValue)
    .optional()
    .meta({
      description:
        '`true`: only conversations with customer messages the organisation has not read; `false`: only read ones',
      examples: ['true'],
    }),
  ...pageQueryFields('Conversations', exampleThreadId),
});
export type TAdminThreadsQuery = z.input<typeof ZAdminThreadsQuery>;

export const ZAdminThreadsResponse = z
  .object({
    /** Newest first (by when they were opened). */
    threads: z.array(ZAdminThread),
    /** Pass as `before` for the next (older) page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ threads: [exampleThread], next_cursor: null }] });
export type TAdminThreadsResponse = z.infer<typeof ZAdminThreadsResponse>;

export const ZAdminThreadMessagesQuery = z.object({
  limit: z.coerce
    .number(FieldError.invalidType)
    .int(FieldError.invalidFormat)
    .min(1, FieldError.tooSmall)
    .max(100, FieldError.tooBig)
    .default(50)
    .meta({ description: 'Messages per page (1-100)', examples: [50] }),
  since: z
    .uuid(FieldError.invalidFormat)
    .optional()
    .meta({
      description:
        "The previous page's `next_cursor` (the id of the last message read): only later messages",
      examples: [exampleMessage.id],
    }),
  thread_id: z
    .uuid(FieldError.invalidFormat)
    .optional()
    .meta({ description: 'Only the messages of this conversation', examples: [exampleThreadId] }),
});
export type TAdminThreadMessagesQuery = z.input<typeof ZAdminThreadMessagesQuery>;

export const ZAdminThreadMessagesResponse = z
  .object({
    /** Oldest first: read forward with `since`. */
    messages: z.array(ZAdminThreadMessage),
    /** Pass as `since` next time (also on the last page: new messages come after it). */
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ messages: [exampleMessage], next_cursor: exampleMessage.id }] });
export type TAdminThreadMessagesResponse = z.infer<typeof ZAdminThreadMessagesResponse>;

export const ZAdminThreadParams = z.object({ id: z.string().min(1).max(64) });

export const ZAdminThreadAnswerRequest = z
  .strictObject({
    message: ZThreadMessageText,
    /** Who answers, shown to the customer above the message. */
    author_name: z
      .string(FieldError.invalidType)
      .trim()
      .max(80, FieldError.tooLong)
      .refine((v) => !hasUnsafeText(v), FieldError.invalidCharacters)
      .default(''),
  })
  .meta({
    examples: [
      {
        message: 'La cuota incluye la matrícula del trimestre. Un saludo.',
        author_name: 'Laura, administración',
      },
    ],
  });
export type TAdminThreadAnswerRequest = z.input<typeof ZAdminThreadAnswerRequest>;

export const ZAdminThreadAnswerResponse = z
  .object({ message: ZAdminThreadMessage })
  .meta({ examples: [{ message: { ...exampleMessage, author: 'organisation' } }] });

export const ZAdminThreadCloseResponse = z
  .object({ thread: ZAdminThread })
  .meta({ examples: [{ thread: { ...exampleThread, status: 'closed' } }] });

export const ZAdminThreadReadResponse = z
  .object({ thread: ZAdminThread })
  .meta({ examples: [{ thread: { ...exampleThread, unread: 0 } }] });

/** The organisation's calls about conversations (API key). */
export const invoiceThreadAdminRoutes = {
  listInvoiceThreads: {
    method: 'GET',
    path: '/admin/invoice-threads',
    auth: 'apiKey',
    summary: "Customers' conversations about their invoices, newest first",
    querystring: ZAdminThreadsQuery,
    response: ZAdminThreadsResponse,
  },
  listInvoiceThreadMessages: {
    method: 'GET',
    path: '/admin/invoice-thread-messages',
    auth: 'apiKey',
    summary:
      'Messages of every conversation (or of one), oldest first, after the `since` cursor (what the `invoice_thread.message_created` webhook tells)',
    querystring: ZAdminThreadMessagesQuery,
    response: ZAdminThreadMessagesResponse,
  },
  answerInvoiceThread: {
    method: 'POST',
    path: '/admin/invoice-threads/:id/messages',
    auth: 'apiKey',
    summary: 'Answer an open conversation: the customer gets a notification and an e-mail',
    params: ZAdminThreadParams,
    body: ZAdminThreadAnswerRequest,
    response: ZAdminThreadAnswerResponse,
    status: 201,
  },
  readInvoiceThread: {
    method: 'POST',
    path: '/admin/invoice-threads/:id/read',
    auth: 'apiKey',
    summary:
      'Mark a conversation read by the organisation: its customer messages so far stop counting as unread',
    params: ZAdminThreadParams,
    response: ZAdminThreadReadResponse,
  },
  closeInvoiceThread: {
    method: 'POST',
    path: '/admin/invoice-threads/:id/close',
    auth: 'apiKey',
    summary: 'Close a conversation: the customer reads it but cannot write in it',
    params: ZAdminThreadParams,
    response: ZAdminThreadCloseResponse,
  },
} as const satisfies Record<string, TRouteDef>;
