import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { DateRangeForm } from '@/components/ui/date-range-form';
import { FilterPanel } from '@/components/ui/filter-panel';
import { AlertIcon, ChevronRightIcon, DocumentIcon } from '@/components/ui/icons';
import { ListFooter } from '@/components/ui/list-footer';
import { Skeleton } from '@/components/ui/skeleton';
import {
  cardClasses,
  pageClasses,
  pageTitleClasses,
  sectionTitleClasses,
} from '@/components/ui/surfaces';
import { Switch } from '@/components/ui/switch';
import { useFocusLoadedItems } from '@/components/ui/use-focus-loaded-items';
import { cn } from '@/utils/cn';
import { type InvoiceListFilters, useInvoices } from '../api/get-invoices';
import { invoiceFiltersFromSearch, invoiceFiltersToSearch } from '../utils/list-filters';
import { InvoiceCard } from './invoice-card';

/**
 * Spec §2 "Invoice list": date range, paid and pending filters, search, cards, view more, clear
 * filters and the related links; every state of spec §4 and §8 (loading, empty, error, no more,
 * load-more error) has its view.
 */
export function InvoiceListScreen() {
  const { t } = useTranslation('invoices');
  const [search, setSearch] = useSearchParams();
  const filters = invoiceFiltersFromSearch(search);
  const apply = (next: InvoiceListFilters) =>
    setSearch(invoiceFiltersToSearch(next), { replace: true });
  const isFiltered = search.toString() !== '';
  const activeFilters =
    Number(search.has('from') || search.has('to')) + Number(filters.paid) + Number(filters.pending);

  return (
    <div className={pageClasses}>
      <h1 className={pageTitleClasses}>{t('invoiceList.title')}</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr]">
        <FilterPanel
          title={t('common.filters')}
          activeCount={activeFilters}
          className="lg:col-start-1"
        >
          <DateRangeForm
            key={`${filters.datefrom}-${filters.dateto}`}
            range={filters}
            onSearch={(range) => apply({ ...filters, ...range })}
            texts={{
              legend: t('common.period'),
              from: t('common.dateFrom'),
              to: t('common.dateTo'),
              search: t('common.search'),
              invalidDate: t('common.invalidDate'),
              invalidRange: t('common.invalidRange'),
            }}
          />
          <div
            role="group"
            aria-label={t('invoiceList.showing')}
            className="mt-4 grid grid-cols-2 gap-2 border-t border-gray-200 pt-3 lg:grid-cols-1 dark:border-gray-700"
          >
            <Switch
              checked={filters.paid}
              onChange={(paid) => apply({ ...filters, paid })}
              label={t('invoiceList.paid')}
              className="rounded-xl"
            />
            <Switch
              checked={filters.pending}
              onChange={(pending) => apply({ ...filters, pending })}
              label={t('invoiceList.pending')}
              className="rounded-xl"
            />
          </div>
          {isFiltered && (
            <Button variant="ghost" className="mt-2 w-full" onClick={() => setSearch({})}>
              {t('common.clearFilters')}
            </Button>
          )}
        </FilterPanel>

        <InvoiceResults filters={filters} />

        <RelatedLinks />
      </div>
    </div>
  );
}

function InvoiceResults({ filters }: { filters: InvoiceListFilters }) {
  const { t } = useTranslation('invoices');
  const query = useInvoices(filters);
  const invoices = query.data?.pages.flatMap((page) => page.invoices) ?? [];
  const listRef = useRef<HTMLUListElement>(null);
  const beforeLoadMore = useFocusLoadedItems(listRef, invoices.length, query.isFetchingNextPage);
  // Spec §8 "Invoice list failure: list emptied, error logged."
  useEffect(() => {
    if (query.error) console.error('Could not load the invoices', query.error);
  }, [query.error]);

  let content;
  if (query.isPending) {
    content = <ListSkeleton label={t('common.loading')} />;
  } else if (query.isError && !query.data) {
    content = (
      <div
        role="alert"
        className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
      >
        <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{t('invoiceList.loadError')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (invoices.length === 0) {
    content = (
      <div className={cn(cardClasses, 'flex flex-col items-center gap-2 p-8 text-center')}>
        <DocumentIcon className="size-8 text-gray-500 dark:text-gray-400" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{t('invoiceList.empty')}</p>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('invoiceList.emptyHint')}</p>
      </div>
    );
  } else {
    content = (
      <>
        <ul ref={listRef} aria-labelledby="invoice-results" className="grid gap-3 md:grid-cols-2">
          {invoices.map((invoice) => (
            <li key={invoice.invoice_id}>
              <InvoiceCard invoice={invoice} />
            </li>
          ))}
        </ul>
        <ListFooter
          hasMore={query.hasNextPage}
          isFetchingMore={query.isFetchingNextPage}
          isError={query.isFetchNextPageError}
          onLoadMore={() => {
            beforeLoadMore();
            void query.fetchNextPage();
          }}
          texts={{
            viewMore: t('common.viewMore'),
            loading: t('common.loading'),
            noMore: t('invoiceList.noMore'),
            loadMoreError: t('invoiceList.loadMoreError'),
            retry: t('common.retry'),
          }}
        />
      </>
    );
  }

  return (
    <section
      aria-labelledby="invoice-results"
      aria-busy={query.isPending}
      className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1"
    >
      <h2 id="invoice-results" className="sr-only">
        {t('invoiceList.listLabel')}
      </h2>
      {content}
    </section>
  );
}

function ListSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <ul className="grid gap-3 md:grid-cols-2">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className={cn(cardClasses, 'flex items-center gap-3 p-4')}>
            <span className="flex-1 space-y-2">
              <Skeleton className="h-5 w-28" />
              <Skeleton className="h-4 w-20" />
            </span>
            <span className="flex flex-col items-end gap-2">
              <Skeleton className="h-5 w-16" />
              <Skeleton className="h-5 w-20 rounded-full" />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const linkRow =
  'flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink';

/** Spec §2: invoices with overdue payments, quotas (disabled) and payments. */
function RelatedLinks() {
  const { t } = useTranslation('invoices');
  return (
    <nav aria-labelledby="invoice-related" className={cn(cardClasses, 'h-fit p-2 lg:col-start-1')}>
      <h2 id="invoice-related" className={cn(sectionTitleClasses, 'px-3 pt-2 pb-1 text-base')}>
        {t('common.relatedLinks')}
      </h2>
      <ul>
        <li>
          <Link
            to={`${paths.payments}?overdue=1`}
            className={cn(
              linkRow,
              'text-gray-900 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
            )}
          >
            <span className="flex-1">{t('invoiceList.overdueInvoices')}</span>
            <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
          </Link>
        </li>
        <li>
          <span aria-disabled="true" className={cn(linkRow, 'text-gray-600 dark:text-gray-400')}>
            <span className="flex-1">{t('invoiceList.quotas')}</span>
            <span className="text-xs">{t('common.comingSoon')}</span>
          </span>
        </li>
        <li>
          <Link
            to={paths.payments}
            className={cn(
              linkRow,
              'text-gray-900 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
            )}
          >
            <span className="flex-1">{t('invoiceList.payments')}</span>
            <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
          </Link>
        </li>
      </ul>
    </nav>
  );
}
