import { z } from 'zod';
import { ZPage } from './common.ts';
import { FieldError } from './errors.ts';
import { hasUnsafeText } from './input-safety.ts';

/**
 * "Ask about this invoice" (issue 23, item 7): a customer opens a conversation with the
 * organisation about one of their invoices; the organisation answers through the ingestion API.
 * Text only: no attachments (docs/ingestion.md says why).
 */

/** Longest message, in characters, either side. */
export const threadMessageMaxLength = 2000;

/** A message: trimmed, not empty, bounded, free of control characters. */
export const ZThreadMessageText = z
  .string(FieldError.required)
  .trim()
  .min(1, { error: FieldError.required, abort: true })
  .max(threadMessageMaxLength, { error: FieldError.tooLong, abort: true })
  .refine((v) => !hasUnsafeText(v), { error: FieldError.invalidCharacters, abort: true });

export const ZThreadStatus = z.enum(['open', 'closed']);
export type TThreadStatus = z.infer<typeof ZThreadStatus>;
export const ZThreadAuthor = z.enum(['customer', 'organisation']);
export type TThreadAuthor = z.infer<typeof ZThreadAuthor>;

export const ZThreadMessage = z.object({
  id: z.string(),
  author: ZThreadAuthor,
  /** The organisation's signature ("Laura, administración"), empty when it gave none. */
  author_name: z.string(),
  body: z.string(),
  /** ISO 8601 instant. */
  created_at: z.string(),
});
export type TThreadMessage = z.infer<typeof ZThreadMessage>;

/** A conversation as the customer sees it in the list. */
export const ZThreadSummary = z.object({
  id: z.string(),
  invoice_id: z.string(),
  status: ZThreadStatus,
  created_at: z.string(),
  /** The organisation wrote after the customer last opened it. */
  unread: z.boolean(),
  last_message: ZThreadMessage,
});
export type TThreadSummary = z.infer<typeof ZThreadSummary>;

// ---- The customer's calls ----

export const ZThreadParams = z.object({ id: z.string().min(1).max(64) });

/** The list's filter and page (a body, like the notifications' list). */
export const ZThreadsQuery = z.object({
  /** Only the conversations about this invoice (the invoice detail's "Ver conversación"). */
  invoice_id: z.string().min(1).max(64).optional(),
  page: ZPage.optional(),
});
export type TThreadsQuery = z.input<typeof ZThreadsQuery>;

export const ZThreadsResponse = z.object({
  /** Newest activity first. */
  threads: z.array(ZThreadSummary),
  has_more: z.boolean(),
  /** How many of every conversation of the customer are unread. */
  unread: z.number().int(),
});
export type TThreadsResponse = z.infer<typeof ZThreadsResponse>;

export const ZOpenThreadRequest = z.strictObject({
  invoice_id: z.string(FieldError.required).min(1, FieldError.required).max(64, FieldError.tooLong),
  message: ZThreadMessageText,
});
export type TOpenThreadRequest = z.input<typeof ZOpenThreadRequest>;

export const ZThreadReplyRequest = z.strictObject({ message: ZThreadMessageText });
export type TThreadReplyRequest = z.input<typeof ZThreadReplyRequest>;

/** One conversation with every message, oldest first. */
export const ZThreadResponse = z.object({
  thread: z.object({
    id: z.string(),
    invoice_id: z.string(),
    status: ZThreadStatus,
    created_at: z.string(),
    /**
     * Until when the organisation has read it (it answered, or marked it read through its API);
     * null while it has not. The customer's screen says when their last message was read.
     */
    organisation_read_at: z.string().nullable(),
  }),
  messages: z.array(ZThreadMessage),
});
export type TThreadResponse = z.infer<typeof ZThreadResponse>;

export const ZThreadMessageResponse = z.object({ message: ZThreadMessage });
