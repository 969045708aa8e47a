import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, SearchIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useInvoice } from '../api/get-invoice';
import { InvoiceView } from './invoice-view';

/**
 * Spec §2 "Invoice detail" with its states (spec §8): loading, not found (a foreign or unknown id
 * is a 404), any other failure; both failures offer the way back home.
 */
export function InvoiceDetailScreen({
  invoiceId,
  aside,
}: {
  invoiceId: string;
  /** Shown under the options (what other features add to an invoice, composed in `app`). */
  aside?: ReactNode;
}) {
  const { t } = useTranslation('invoices');
  const invoice = useInvoice(invoiceId);

  if (invoice.isPending) {
    return (
      <div className={pageClasses} role="status" aria-label={t('invoiceDetail.loading')}>
        <Skeleton className="h-5 w-64" />
        <Skeleton className="mt-6 h-9 w-56" />
        <Skeleton className="mt-2 h-5 w-28" />
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <Skeleton className="h-64 rounded-2xl" />
          <Skeleton className="h-48 rounded-2xl" />
        </div>
      </div>
    );
  }

  if (invoice.isError) {
    const isNotFound = invoice.error instanceof ApiError && invoice.error.status === 404;
    const Icon = isNotFound ? SearchIcon : AlertIcon;
    return (
      <div className={cn(pageClasses, 'max-w-md')}>
        <div role="alert" className={cn(cardClasses, 'flex flex-col items-center p-8 text-center')}>
          <span className="mb-5 grid size-16 place-items-center rounded-full bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
            <Icon className="size-8" />
          </span>
          <h1 className="text-xl font-bold text-gray-900 dark:text-gray-50">
            {isNotFound
              ? t('invoiceDetail.loadError.notFoundTitle')
              : t('invoiceDetail.loadError.title')}
          </h1>
          <p className="mt-2 text-gray-700 dark:text-gray-300">
            {isNotFound
              ? t('invoiceDetail.loadError.notFound')
              : t('invoiceDetail.loadError.description')}
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            {!isNotFound && (
              <Button variant="secondary" onClick={() => void invoice.refetch()}>
                {t('common.retry')}
              </Button>
            )}
            <Link to={paths.home} className={buttonClasses('primary')}>
              {t('common.backToHome')}
            </Link>
          </div>
        </div>
      </div>
    );
  }

  return <InvoiceView invoice={invoice.data} aside={aside} />;
}
