import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, Icon, SearchIcon } from '@/components/ui/icons';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { unreadThreads } from '@/lib/unread-threads';
import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useThread, type ThreadMessage } from '../api/get-thread';
import { threadsKey } from '../api/get-threads';
import { useReplyThread } from '../api/reply-thread';
import { sendFailureText } from '../utils/message-errors';
import { formatMoment } from '@/lib/dates';
import { MessageForm } from './message-form';

/**
 * One conversation about an invoice (issue 23, item 7): the messages as a conversation (the
 * customer's on the end side, the organisation's on the start side with who answered), the reply
 * box while it is open. Opening it marks it read; a foreign or unknown id is "not found".
 */
export function ThreadScreen({ threadId }: { threadId: string }) {
  const { t } = useTranslation('threads');
  const thread = useThread(threadId);
  const reply = useReplyThread();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { companyName } = useVisualConfig();

  // Read now: the lists' unread marks, the menu's badge and the bell's count are stale.
  const loadedAt = thread.dataUpdatedAt;
  useEffect(() => {
    if (loadedAt === 0) return;
    void queryClient.invalidateQueries({ queryKey: [...threadsKey, 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    void unreadThreads.refresh();
  }, [loadedAt, queryClient]);

  if (thread.isPending) {
    return (
      <Page width="form" role="status" aria-label={t('thread.loading')}>
        <Skeleton className="h-9 w-72" />
        <div className="mt-6 space-y-4">
          <Skeleton className="ms-auto h-20 w-4/5 rounded-2xl" />
          <Skeleton className="h-24 w-4/5 rounded-2xl" />
        </div>
      </Page>
    );
  }

  if (thread.isError) {
    const isNotFound = thread.error instanceof ApiError && thread.error.status === 404;
    const Icon = isNotFound ? SearchIcon : AlertIcon;
    return (
      <Page width="message">
        <div role="alert" className={cn(cardClasses, 'flex flex-col items-center p-8 text-center')}>
          <span className="mb-5 grid size-16 place-items-center rounded-full bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
            <Icon className="size-8" />
          </span>
          <h1 className="text-xl font-bold text-gray-900 dark:text-gray-50">
            {isNotFound ? t('thread.notFoundTitle') : t('thread.loadErrorTitle')}
          </h1>
          <p className="mt-2 text-gray-700 dark:text-gray-300">
            {isNotFound ? t('thread.notFound') : t('thread.loadError')}
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            {!isNotFound && (
              <Button variant="secondary" onClick={() => void thread.refetch()}>
                {t('list.retry')}
              </Button>
            )}
            <Link to={paths.invoiceThreads} className={buttonClasses('primary')}>
              {t('thread.backToList')}
            </Link>
          </div>
        </div>
      </Page>
    );
  }

  const { thread: about, messages } = thread.data;
  const isOpen = about.status === 'open';
  const last = messages.at(-1);
  // The customer wrote last and the organisation has read it since (it has not answered yet).
  const isLastRead =
    last?.author === 'customer' &&
    about.organisation_read_at !== null &&
    Date.parse(about.organisation_read_at) >= Date.parse(last.created_at);

  const send = async (message: string): Promise<boolean> => {
    setFailure(null);
    try {
      await reply.mutateAsync({ id: threadId, message });
      return true;
    } catch (error) {
      setFailure(sendFailureText(error, t));
      return false;
    }
  };

  return (
    <Page width="form">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h1 className={cn(pageTitleClasses, 'min-w-0 break-words')}>
          {t('thread.title', { invoice: about.invoice_id })}
        </h1>
        {!isOpen && <StatusBadge tone="neutral">{t('thread.closedBadge')}</StatusBadge>}
      </div>
      <p className="mt-2">
        <Link
          to={paths.invoiceDetail.href(about.invoice_id)}
          className="inline-flex min-h-11 items-center rounded text-sm font-semibold text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
        >
          {t('thread.viewInvoice')}
        </Link>
      </p>

      <section aria-labelledby="thread-messages" className="mt-4">
        <h2 id="thread-messages" className="sr-only">
          {t('thread.messages')}
        </h2>
        <ol className="space-y-4">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} />
          ))}
        </ol>
        {isLastRead && (
          <p className="mt-1 flex items-center justify-end gap-1 text-xs text-gray-600 dark:text-gray-300">
            <Icon className="size-4">
              <path d="M5 12.5l4.5 4.5L19 7.5" />
            </Icon>
            {t('thread.readByOrganisation', { company: companyName })}
          </p>
        )}
      </section>

      <div className={cn(cardClasses, 'mt-6 p-4 sm:p-5')}>
        {isOpen ? (
          <>
            <h2 className={cn(sectionTitleClasses, 'mb-3')}>{t('form.reply')}</h2>
            <MessageForm
              label={t('form.label')}
              submitLabel={t('form.send')}
              isPending={reply.isPending}
              failure={failure}
              onSend={send}
            />
          </>
        ) : (
          <p className="text-sm text-gray-700 dark:text-gray-300">{t('thread.closed')}</p>
        )}
      </div>
    </Page>
  );
}

function MessageBubble({ message }: { message: ThreadMessage }) {
  const { t } = useTranslation('threads');
  const { companyName } = useVisualConfig();
  const isMine = message.author === 'customer';
  const who = isMine
    ? t('thread.you')
    : message.author_name
      ? `${message.author_name} · ${companyName}`
      : t('thread.organisation', { company: companyName });
  return (
    <li className={cn('flex', isMine ? 'justify-end' : 'justify-start')}>
      <article
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-3 shadow-sm ring-1',
          isMine
            ? 'rounded-ee-sm bg-primary-100 text-gray-900 ring-primary-200 dark:bg-gray-700 dark:text-gray-50 dark:ring-gray-600'
            : 'rounded-es-sm bg-white text-gray-900 ring-gray-200 dark:bg-gray-800 dark:text-gray-50 dark:ring-gray-700',
        )}
      >
        <header className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs">
          <span className="font-semibold text-gray-800 dark:text-gray-200">{who}</span>
          <time dateTime={message.created_at} className="text-gray-600 dark:text-gray-300">
            {formatMoment(message.created_at)}
          </time>
        </header>
        <p className="mt-1 text-sm break-words whitespace-pre-line">{message.body}</p>
      </article>
    </li>
  );
}
