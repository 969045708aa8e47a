import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { DateRangeForm } from '@/components/ui/date-range-form';
import { FilterPanel } from '@/components/ui/filter-panel';
import { AlertIcon, BankIcon, CardIcon, ChevronRightIcon } from '@/components/ui/icons';
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
import { todayApiDate } from '@/lib/dates';
import { formatAmount, sumAmounts } from '@/lib/money';
import { paymentsCheckinHref } from '@/lib/payment-checkin';
import { isUnpaid, statusOfPayment } from '@/lib/payment-status';
import { cn } from '@/utils/cn';
import { type PaymentListFilters, usePayments } from '../api/get-payments';
import { paymentFiltersFromSearch, paymentFiltersToSearch } from '../utils/list-filters';
import { PaymentItem } from './payment-item';

/** Chosen payments in the order they were chosen: id -> amount. */
type Selection = ReadonlyMap<string, number>;
const noSelection: Selection = new Map();

/**
 * Spec §2 "Payments list": date range, only pending, only overdue, order by due date descending,
 * select-to-pay mode with a running total handed to the payment screen, view more, the
 * bank-transfer note and the links to contracts (disabled) and invoices.
 */
export function PaymentListScreen() {
  const { t } = useTranslation('invoices');
  const [search, setSearch] = useSearchParams();
  const filters = paymentFiltersFromSearch(search);
  const [isSelecting, setSelecting] = useState(false);
  const [selection, setSelection] = useState<Selection>(noSelection);

  // Another search shows other payments: what was chosen from the old one is let go.
  const apply = (next: PaymentListFilters) => {
    setSearch(paymentFiltersToSearch(next), { replace: true });
    setSelection(noSelection);
  };
  // Spec §4: leaving the selection mode clears the selection.
  const toggleSelecting = () => {
    setSelecting(!isSelecting);
    setSelection(noSelection);
  };

  return (
    <div className={pageClasses}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className={pageTitleClasses}>{t('payments.title')}</h1>
        <Button
          variant={isSelecting ? 'secondary' : 'primary'}
          aria-pressed={isSelecting}
          onClick={toggleSelecting}
        >
          <CardIcon className="size-5" />
          {isSelecting ? t('payments.cancelSelection') : t('payments.selectToPay')}
        </Button>
      </div>
      {isSelecting && (
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">{t('payments.selectHint')}</p>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr]">
        <FilterPanel
          title={t('common.filters')}
          activeCount={
            Number(search.has('from') || search.has('to')) +
            Number(filters.onlyPending) +
            Number(filters.onlyOverdue) +
            Number(filters.order === 'asc')
          }
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
          <div className="mt-4 grid gap-1 border-t border-gray-200 pt-3 dark:border-gray-700">
            <Switch
              checked={filters.onlyPending}
              onChange={(onlyPending) => apply({ ...filters, onlyPending })}
              label={t('payments.onlyPending')}
              className="rounded-xl"
            />
            <Switch
              checked={filters.onlyOverdue}
              onChange={(onlyOverdue) => apply({ ...filters, onlyOverdue })}
              label={t('payments.onlyOverdue')}
              className="rounded-xl"
            />
            {/* Spec §2: only the descending switch is shown; off is the ascending order. */}
            <Switch
              checked={filters.order === 'desc'}
              onChange={(desc) => apply({ ...filters, order: desc ? 'desc' : 'asc' })}
              label={t('payments.orderDesc')}
              className="rounded-xl"
            />
          </div>
          {search.toString() !== '' && (
            <Button
              variant="ghost"
              className="mt-2 w-full"
              onClick={() => apply(paymentFiltersFromSearch(new URLSearchParams()))}
            >
              {t('common.clearFilters')}
            </Button>
          )}
        </FilterPanel>

        <PaymentResults
          filters={filters}
          isSelecting={isSelecting}
          selection={selection}
          onSelectionChange={setSelection}
        />

        <div className="h-fit space-y-6 lg:col-start-1">
          <aside
            aria-labelledby="bank-transfer"
            className="flex gap-3 rounded-2xl bg-sky-50 p-4 text-sm text-sky-950 ring-1 ring-sky-200 dark:bg-sky-950/40 dark:text-sky-100 dark:ring-sky-800"
          >
            <BankIcon className="size-6 shrink-0" />
            <div>
              <h2 id="bank-transfer" className="font-semibold">
                {t('payments.bankTransferTitle')}
              </h2>
              <p className="mt-1">{t('payments.bankTransfer')}</p>
            </div>
          </aside>
          <RelatedLinks />
        </div>
      </div>

      {isSelecting && <SelectionBar selection={selection} />}
    </div>
  );
}

function PaymentResults({
  filters,
  isSelecting,
  selection,
  onSelectionChange,
}: {
  filters: PaymentListFilters;
  isSelecting: boolean;
  selection: Selection;
  onSelectionChange: (selection: Selection) => void;
}) {
  const { t } = useTranslation('invoices');
  const query = usePayments(filters);
  const payments = query.data?.pages.flatMap((page) => page.payments) ?? [];
  const listRef = useRef<HTMLUListElement>(null);
  const beforeLoadMore = useFocusLoadedItems(listRef, payments.length, query.isFetchingNextPage);
  const today = todayApiDate();
  useEffect(() => {
    if (query.error) console.error('Could not load the payments', query.error);
  }, [query.error]);

  const toggle = (id: string, amount: number, selected: boolean) => {
    const next = new Map(selection);
    if (selected) next.set(id, amount);
    else next.delete(id);
    onSelectionChange(next);
  };

  let content;
  if (query.isPending) {
    content = (
      <div role="status" aria-label={t('common.loading')}>
        <ul className="grid gap-3 xl:grid-cols-2">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className={cn(cardClasses, 'space-y-2 p-4')}>
              <span className="flex justify-between">
                <Skeleton className="h-5 w-36" />
                <Skeleton className="h-5 w-16" />
              </span>
              <span className="flex justify-between">
                <Skeleton className="h-4 w-44" />
                <Skeleton className="h-5 w-20 rounded-full" />
              </span>
            </li>
          ))}
        </ul>
      </div>
    );
  } else if (query.isError && !query.data) {
    content = (
      <div
        role="alert"
        className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
      >
        <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{t('payments.loadError')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (payments.length === 0) {
    content = (
      <div className={cn(cardClasses, 'flex flex-col items-center gap-2 p-8 text-center')}>
        <CardIcon className="size-8 text-gray-500 dark:text-gray-400" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{t('payments.empty')}</p>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('payments.emptyHint')}</p>
      </div>
    );
  } else {
    content = (
      <>
        <ul ref={listRef} aria-labelledby="payment-results" className="grid gap-3 xl:grid-cols-2">
          {payments.map((payment) => {
            const status = statusOfPayment(payment, today);
            return (
              <li key={payment.payment_id}>
                <PaymentItem
                  payment={payment}
                  status={status}
                  {...(isSelecting
                    ? {
                        selection: {
                          selectable: isUnpaid(status),
                          selected: selection.has(payment.payment_id),
                          onToggle: (selected: boolean) =>
                            toggle(payment.payment_id, payment.amount, selected),
                        },
                      }
                    : {})}
                />
              </li>
            );
          })}
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
            noMore: t('payments.noMore'),
            loadMoreError: t('payments.loadMoreError'),
            retry: t('common.retry'),
          }}
        />
      </>
    );
  }

  return (
    <section
      aria-labelledby="payment-results"
      aria-busy={query.isPending}
      className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1"
    >
      <h2 id="payment-results" className="sr-only">
        {t('payments.listLabel')}
      </h2>
      {content}
    </section>
  );
}

/**
 * The running total of the select-to-pay mode (a polite live region), and the hand-over to the
 * payment screen with the chosen instalments and their total.
 */
function SelectionBar({ selection }: { selection: Selection }) {
  const { t } = useTranslation('invoices');
  const total = sumAmounts(selection.values());
  const count = selection.size;
  return (
    <div className="sticky bottom-24 z-20 mt-6 md:bottom-4">
      <div
        className={cn(
          cardClasses,
          'flex flex-wrap items-center justify-between gap-3 p-4 shadow-lg ring-2 ring-primary-ink',
        )}
      >
        <p
          aria-live="polite"
          aria-atomic="true"
          className="text-sm text-gray-900 dark:text-gray-100"
        >
          <span className="block font-medium">{t('payments.selected', { count })}</span>
          <span className="block text-lg font-bold tabular-nums">
            {t('payments.total', { amount: formatAmount(total) })}
          </span>
        </p>
        {count > 0 ? (
          <Link
            to={paymentsCheckinHref([...selection.keys()], total)}
            className={buttonClasses('primary')}
          >
            {t('payments.paySelected')}
          </Link>
        ) : (
          <Button disabled>{t('payments.paySelected')}</Button>
        )}
      </div>
    </div>
  );
}

const linkRow =
  'flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink';

/** Spec §2: links to contracts (disabled) and invoices. */
function RelatedLinks() {
  const { t } = useTranslation('invoices');
  return (
    <nav aria-labelledby="payment-related" className={cn(cardClasses, 'p-2')}>
      <h2 id="payment-related" className={cn(sectionTitleClasses, 'px-3 pt-2 pb-1 text-base')}>
        {t('common.relatedLinks')}
      </h2>
      <ul>
        <li>
          <span aria-disabled="true" className={cn(linkRow, 'text-gray-600 dark:text-gray-400')}>
            <span className="flex-1">{t('payments.contracts')}</span>
            <span className="text-xs">{t('common.comingSoon')}</span>
          </span>
        </li>
        <li>
          <Link
            to={paths.invoices}
            className={cn(
              linkRow,
              'text-gray-900 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
            )}
          >
            <span className="flex-1">{t('payments.invoices')}</span>
            <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
          </Link>
        </li>
      </ul>
    </nav>
  );
}
