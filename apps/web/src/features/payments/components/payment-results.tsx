import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { CardIcon } from '@/components/ui/icons';
import { ListState } from '@/components/ui/list-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses } from '@/components/ui/surfaces';
import { useFocusLoadedItems } from '@/components/ui/use-focus-loaded-items';
import { isUnpaid } from '@/lib/payment-status';
import { desktopQuery, useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/utils/cn';
import { type PaymentListFilters, type PaymentListItem, usePayments } from '../api/get-payments';
import { PaymentCard } from './payment-card';
import { PaymentTable } from './payment-table';
import { SelectionBar } from './selection-bar';
import type { RowSelection, Selection } from './selection';

type PaymentResultsProps = {
  filters: PaymentListFilters;
  isSelecting: boolean;
  selection: Selection;
  onSelectionChange: (selection: Selection) => void;
  className?: string;
};

/**
 * The payments with every state (loading, empty, error, no more, load-more error): a table on a
 * desktop, cards below it; in select-to-pay mode the rows get checkboxes and the total bar follows
 * them.
 */
export function PaymentResults({
  filters,
  isSelecting,
  selection,
  onSelectionChange,
  className,
}: PaymentResultsProps) {
  const { t } = useTranslation('invoices');
  const isDesktop = useMediaQuery(desktopQuery);
  const query = usePayments(filters);
  const payments = query.data?.pages.flatMap((page) => page.payments) ?? [];
  const itemsRef = useRef<HTMLElement | null>(null);
  const setItems = (node: HTMLElement | null) => {
    itemsRef.current = node;
  };
  const beforeLoadMore = useFocusLoadedItems(itemsRef, payments.length, query.isFetchingNextPage);
  useEffect(() => {
    if (query.error) console.error('Could not load the payments', query.error);
  }, [query.error]);

  // The selection as the rows say now, in the order chosen: only instalments still listed and
  // unpaid, at what paying them costs now. One paid meanwhile (another tab, auto-pay) stayed in
  // the total and the hand-over, and could not be unticked (session 39).
  const rows = new Map(payments.map((payment) => [payment.payment_id, payment]));
  const current: Selection = new Map(
    [...selection.keys()].flatMap((id) => {
      const row = rows.get(id);
      return row && isUnpaid(row.status) ? [[id, row.to_pay ?? row.amount] as const] : [];
    }),
  );
  const selectionOf = (payment: PaymentListItem): RowSelection => ({
    selectable: isUnpaid(payment.status),
    selected: current.has(payment.payment_id),
    onToggle: (selected) => {
      const next = new Map(current);
      // What paying it costs now, as the confirmation will ask (a returned debit's fee included).
      if (selected) next.set(payment.payment_id, payment.to_pay ?? payment.amount);
      else next.delete(payment.payment_id);
      onSelectionChange(next);
    },
  });

  const content = (
    <ListState
      query={query}
      isEmpty={payments.length === 0}
      skeleton={
        <ul className="grid gap-3 md:grid-cols-2 lg:grid-cols-1">
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
      }
      empty={{ icon: CardIcon, title: t('payments.empty'), hint: t('payments.emptyHint') }}
      texts={{
        loading: t('common.loading'),
        loadError: t('payments.loadError'),
        retry: t('common.retry'),
      }}
      more={{
        query,
        beforeLoadMore,
        texts: {
          viewMore: t('common.viewMore'),
          noMore: t('payments.noMore'),
          loadMoreError: t('payments.loadMoreError'),
        },
      }}
    >
      {isDesktop ? (
        <PaymentTable
          payments={payments}
          selectionOf={isSelecting ? selectionOf : undefined}
          bodyRef={setItems}
        />
      ) : (
        <ul ref={setItems} aria-labelledby="payment-results" className="grid gap-3 md:grid-cols-2">
          {payments.map((payment) => (
            <li key={payment.payment_id}>
              <PaymentCard
                payment={payment}
                selection={isSelecting ? selectionOf(payment) : undefined}
              />
            </li>
          ))}
        </ul>
      )}
      {isSelecting && <SelectionBar selection={current} />}
    </ListState>
  );

  return (
    <section
      aria-labelledby="payment-results"
      aria-busy={query.isPending}
      className={cn(isSelecting && 'pb-32', className)}
    >
      <h2 id="payment-results" className="sr-only">
        {t('payments.listLabel')}
      </h2>
      {content}
    </section>
  );
}
