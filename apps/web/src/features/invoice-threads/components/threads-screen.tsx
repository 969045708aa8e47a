import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { ChevronRightIcon, MailIcon } from '@/components/ui/icons';
import { ListState } from '@/components/ui/list-state';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, interactiveCardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useThreadPages, type ThreadSummary } from '../api/get-threads';
import { formatMoment } from '@/lib/dates';

/**
 * "Mis consultas" (issue 23, item 7): the customer's conversations about invoices, newest activity
 * first, those with an unread answer marked (and counted above the list).
 */
export function ThreadsScreen() {
  const { t } = useTranslation('threads');
  const { companyName } = useVisualConfig();
  const pages = useThreadPages();
  const threads = pages.data?.pages.flatMap((page) => page.threads) ?? [];
  const unread = pages.data?.pages[0]?.unread ?? 0;

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('list.title')}</h1>
      <p className="mt-2 text-gray-700 dark:text-gray-300">
        {t('list.description', { company: companyName })}
      </p>
      {unread > 0 && (
        <p className="mt-2 font-semibold text-gray-900 dark:text-gray-50" role="status">
          {t('list.unread', { count: unread })}
        </p>
      )}
      <div className="mt-6">
        <ListState
          query={pages}
          isEmpty={threads.length === 0}
          skeleton={
            <div className="space-y-3">
              <Skeleton className="h-24 rounded-2xl" />
              <Skeleton className="h-24 rounded-2xl" />
            </div>
          }
          empty={{ icon: MailIcon, title: t('list.empty'), hint: t('list.emptyHint') }}
          texts={{
            loading: t('list.loading'),
            loadError: t('list.loadError'),
            retry: t('list.retry'),
          }}
          more={{
            query: pages,
            texts: {
              viewMore: t('list.viewMore'),
              noMore: t('list.noMore'),
              loadMoreError: t('list.loadError'),
            },
          }}
        >
          <ul aria-label={t('list.label')} className="space-y-3">
            {threads.map((thread) => (
              <ThreadItem key={thread.id} thread={thread} />
            ))}
          </ul>
        </ListState>
        {!pages.isPending && threads.length === 0 && !pages.isError && (
          <p className="mt-4 text-center">
            <Link to={paths.invoices} className={buttonClasses('secondary')}>
              {t('list.goInvoices')}
            </Link>
          </p>
        )}
      </div>
    </Page>
  );
}

function ThreadItem({ thread }: { thread: ThreadSummary }) {
  const { t } = useTranslation('threads');
  const last = thread.last_message;
  const preview = last.author === 'customer' ? t('list.you', { text: last.body }) : last.body;
  return (
    <li>
      <Link
        to={paths.invoiceThread.href(thread.id)}
        aria-label={t('list.open', { invoice: thread.invoice_id })}
        className={cn(
          cardClasses,
          interactiveCardClasses,
          'flex items-center gap-3 p-4',
          thread.unread && 'ring-2 ring-primary-fill',
        )}
      >
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-2">
            <span
              className={cn(
                'text-gray-900 dark:text-gray-50',
                thread.unread ? 'font-bold' : 'font-semibold',
              )}
            >
              {t('list.invoice', { invoice: thread.invoice_id })}
            </span>
            {thread.unread && <StatusBadge tone="info">{t('list.new')}</StatusBadge>}
            {thread.status === 'closed' && (
              <StatusBadge tone="neutral">{t('list.closed')}</StatusBadge>
            )}
          </span>
          <span className="mt-1 line-clamp-2 text-sm break-words text-gray-700 dark:text-gray-300">
            {preview}
          </span>
          <time
            dateTime={last.created_at}
            className="mt-1 block text-xs text-gray-600 dark:text-gray-300"
          >
            {formatMoment(last.created_at)}
          </time>
        </span>
        <ChevronRightIcon className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
      </Link>
    </li>
  );
}
