import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/use-translation';
import { DocumentIcon } from '@/components/ui/icons';
import { ListState } from '@/components/ui/list-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses } from '@/components/ui/surfaces';
import { useFocusLoadedItems } from '@/components/ui/use-focus-loaded-items';
import { desktopQuery, useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/utils/cn';
import { type InvoiceListFilters, useInvoices } from '../api/get-invoices';
import { InvoiceCard } from './invoice-card';
import { InvoiceTable } from './invoice-table';
import { type ZipSelection, ZipSelectionBar } from './zip-selection';

/**
 * The results of the invoice list with every state of spec §4 and §8 (loading, empty, error, no
 * more, load-more error): a table on a desktop, cards below it.
 */
export function InvoiceResults({
  filters,
  className,
}: {
  filters: InvoiceListFilters;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  const isDesktop = useMediaQuery(desktopQuery);
  const query = useInvoices(filters);
  const invoices = query.data?.pages.flatMap((page) => page.invoices) ?? [];
  // The element whose children are the items: the table's body or the list of cards.
  const itemsRef = useRef<HTMLElement | null>(null);
  const setItems = (node: HTMLElement | null) => {
    itemsRef.current = node;
  };
  const beforeLoadMore = useFocusLoadedItems(itemsRef, invoices.length, query.isFetchingNextPage);
  // Select-to-download mode (issue 23, item 3): the chosen invoices, in the order chosen.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selection: ZipSelection | undefined = chosen
    ? {
        isSelected: (id) => chosen.includes(id),
        toggle: (id, on) =>
          setChosen((current) =>
            on ? [...(current ?? []), id] : (current ?? []).filter((c) => c !== id),
          ),
      }
    : undefined;
  // Spec §8 "Invoice list failure: list emptied, error logged."
  useEffect(() => {
    if (query.error) console.error('Could not load the invoices', query.error);
  }, [query.error]);

  const content = (
    <ListState
      query={query}
      isEmpty={invoices.length === 0}
      skeleton={<ListSkeleton />}
      empty={{
        icon: DocumentIcon,
        title: t('invoiceList.empty'),
        hint: t('invoiceList.emptyHint'),
      }}
      texts={{
        loading: t('common.loading'),
        loadError: t('invoiceList.loadError'),
        retry: t('common.retry'),
      }}
      more={{
        query,
        beforeLoadMore,
        texts: {
          viewMore: t('common.viewMore'),
          noMore: t('invoiceList.noMore'),
          loadMoreError: t('invoiceList.loadMoreError'),
        },
      }}
    >
      {isDesktop ? (
        <InvoiceTable invoices={invoices} bodyRef={setItems} selection={selection} />
      ) : (
        <ul ref={setItems} aria-labelledby="invoice-results" className="grid gap-3 md:grid-cols-2">
          {invoices.map((invoice) => (
            <li key={invoice.invoice_id}>
              <InvoiceCard invoice={invoice} selection={selection} />
            </li>
          ))}
        </ul>
      )}
    </ListState>
  );

  return (
    <section aria-labelledby="invoice-results" aria-busy={query.isPending} className={className}>
      <h2 id="invoice-results" className="sr-only">
        {t('invoiceList.listLabel')}
      </h2>
      {invoices.length > 0 && !chosen && (
        <div className="mb-3 flex justify-end">
          <Button variant="secondary" onClick={() => setChosen([])}>
            {t('zipSelection.start')}
          </Button>
        </div>
      )}
      {content}
      {chosen && (
        <>
          {/* Room for the fixed bar, so it never covers the last row. */}
          <div aria-hidden="true" className="h-28" />
          <ZipSelectionBar ids={chosen} onCancel={() => setChosen(null)} />
        </>
      )}
    </section>
  );
}

/** Six placeholder cards shaped like the invoice cards. */
function ListSkeleton() {
  return (
    <ul className="grid gap-3 md:grid-cols-2 lg:grid-cols-1">
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
  );
}
