import { useTranslation } from '@/lib/use-translation';
import { Button } from '@/components/ui/button';
import { DateRangeForm } from '@/components/ui/date-range-form';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Switch } from '@/components/ui/switch';
import type { InvoiceListFilters } from '../api/get-invoices';

type InvoiceFiltersProps = {
  filters: InvoiceListFilters;
  activeCount: number;
  isFiltered: boolean;
  onApply: (filters: InvoiceListFilters) => void;
  onClear: () => void;
  className?: string;
};

/** Spec §2 "Invoice list" filters: the date range, only paid, only pending, clear filters. */
export function InvoiceFilters({
  filters,
  activeCount,
  isFiltered,
  onApply,
  onClear,
  className,
}: InvoiceFiltersProps) {
  const { t } = useTranslation('invoices');
  return (
    <FilterPanel title={t('common.filters')} activeCount={activeCount} className={className}>
      <DateRangeForm
        key={`${filters.datefrom}-${filters.dateto}`}
        range={filters}
        onSearch={(range) => onApply({ ...filters, ...range })}
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
          onChange={(paid) => onApply({ ...filters, paid })}
          label={t('invoiceList.paid')}
          className="rounded-xl"
        />
        <Switch
          checked={filters.pending}
          onChange={(pending) => onApply({ ...filters, pending })}
          label={t('invoiceList.pending')}
          className="rounded-xl"
        />
      </div>
      {isFiltered && (
        <Button variant="ghost" className="mt-2 w-full" onClick={onClear}>
          {t('common.clearFilters')}
        </Button>
      )}
    </FilterPanel>
  );
}
