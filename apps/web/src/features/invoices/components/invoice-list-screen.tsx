import { useTranslation } from '@/lib/use-translation';
import { useSearchParams } from 'react-router';
import { pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import type { InvoiceListFilters } from '../api/get-invoices';
import { invoiceFiltersFromSearch, invoiceFiltersToSearch } from '../utils/list-filters';
import { InvoiceFilters } from './invoice-filters';
import { InvoiceRelatedLinks } from './invoice-related-links';
import { InvoiceResults } from './invoice-results';

/**
 * Spec §2 "Invoice list", in three parts: the filters (kept in the address), the results (a table
 * on a desktop, cards on a phone, each with its status from the server and its own actions) and
 * the related links.
 */
export function InvoiceListScreen() {
  const { t } = useTranslation('invoices');
  const [search, setSearch] = useSearchParams();
  const filters = invoiceFiltersFromSearch(search);
  const apply = (next: InvoiceListFilters) =>
    setSearch(invoiceFiltersToSearch(next), { replace: true });

  return (
    <div className={pageClasses}>
      <h1 className={pageTitleClasses}>{t('invoiceList.title')}</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr]">
        <InvoiceFilters
          filters={filters}
          activeCount={
            Number(search.has('from') || search.has('to')) +
            Number(filters.paid) +
            Number(filters.pending)
          }
          isFiltered={search.toString() !== ''}
          onApply={apply}
          onClear={() => setSearch({})}
          className="lg:col-start-1"
        />
        <InvoiceResults
          filters={filters}
          className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        />
        <InvoiceRelatedLinks className="lg:col-start-1" />
      </div>
    </div>
  );
}
