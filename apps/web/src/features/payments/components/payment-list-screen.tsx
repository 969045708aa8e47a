import { type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { CardIcon } from '@/components/ui/icons';
import { pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import type { PaymentListFilters } from '../api/get-payments';
import { paymentFiltersFromSearch, paymentFiltersToSearch } from '../utils/list-filters';
import { PaymentFilters } from './payment-filters';
import { PaymentResults } from './payment-results';
import { PaymentSideNotes } from './payment-side-notes';
import { noSelection, type Selection } from './selection';

/**
 * Spec §2 "Payments list" ("Mis pagos"), in parts: what is owed first (`hero`, composed by the
 * route: the balance is its own feature), then the filters (kept in the address), the results
 * (a table on a desktop, cards on a phone, each unpaid row with its own "Pagar"), the select-to-pay
 * mode, and the bank-transfer note with the related links.
 */
export function PaymentListScreen({ hero }: { hero?: ReactNode }) {
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
      <h1 className={pageTitleClasses}>{t('payments.title')}</h1>
      {hero && <div className="mt-4">{hero}</div>}

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        {isSelecting ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">{t('payments.selectHint')}</p>
        ) : (
          <span />
        )}
        <Button variant="secondary" aria-pressed={isSelecting} onClick={toggleSelecting}>
          <CardIcon className="size-5" />
          {isSelecting ? t('payments.cancelSelection') : t('payments.selectToPay')}
        </Button>
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr]">
        <PaymentFilters
          filters={filters}
          activeCount={
            Number(search.has('from') || search.has('to')) +
            Number(filters.onlyPending) +
            Number(filters.onlyOverdue) +
            Number(filters.order === 'asc')
          }
          isFiltered={search.toString() !== ''}
          onApply={apply}
          onClear={() => apply(paymentFiltersFromSearch(new URLSearchParams()))}
          className="lg:col-start-1"
        />
        <PaymentResults
          filters={filters}
          isSelecting={isSelecting}
          selection={selection}
          onSelectionChange={setSelection}
          className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        />
        <PaymentSideNotes className="lg:col-start-1" />
      </div>
    </div>
  );
}
