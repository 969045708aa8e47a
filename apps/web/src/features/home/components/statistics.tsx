import { useTranslation } from '@/lib/use-translation';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { formatDate, previousMonthRange } from '@/lib/dates';
import { formatAmount, missingAmount } from '@/lib/money';
import { cn } from '@/utils/cn';
import { useInvoiceSummary } from '../api/get-invoice-summary';

/**
 * Spec §2 "Home" statistics: pending invoices and pending amount of the previous calendar month,
 * a skeleton while loading, dashes and an error label on error (spec §8).
 */
export function Statistics({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  const range = previousMonthRange();
  const summary = useInvoiceSummary(range);

  const value = (text: () => string) =>
    summary.isPending ? (
      <Skeleton className="mt-1 h-8 w-24" />
    ) : summary.isError ? (
      missingAmount
    ) : (
      text()
    );

  return (
    <section aria-labelledby="home-stats" aria-busy={summary.isPending} className={className}>
      <h2 id="home-stats" className={sectionTitleClasses}>
        {t('home.stats.title')}
      </h2>
      <p className="text-sm text-gray-600 dark:text-gray-400">
        {t('home.stats.period', {
          from: formatDate(range.datefrom),
          to: formatDate(range.dateto),
        })}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <div className={cn(cardClasses, 'p-4')}>
          <dt className="text-sm text-gray-700 dark:text-gray-300">
            {t('home.stats.pendingInvoices')}
          </dt>
          <dd className="mt-1 text-2xl font-bold text-gray-900 tabular-nums dark:text-gray-50">
            {value(() => String(summary.data?.total_invoices ?? 0))}
          </dd>
        </div>
        <div className={cn(cardClasses, 'p-4')}>
          <dt className="text-sm text-gray-700 dark:text-gray-300">
            {t('home.stats.pendingAmount')}
          </dt>
          <dd className="mt-1 text-2xl font-bold text-gray-900 tabular-nums dark:text-gray-50">
            {value(() => formatAmount(summary.data?.total_pending))}
          </dd>
        </div>
      </dl>
      {summary.isError && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-300">
          {t('home.stats.error')}
        </p>
      )}
    </section>
  );
}
