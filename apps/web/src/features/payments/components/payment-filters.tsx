import { useTranslation } from '@/lib/use-translation';
import { Button } from '@/components/ui/button';
import { DateRangeForm } from '@/components/ui/date-range-form';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Switch } from '@/components/ui/switch';
import type { PaymentListFilters } from '../api/get-payments';

type PaymentFiltersProps = {
  filters: PaymentListFilters;
  activeCount: number;
  isFiltered: boolean;
  onApply: (filters: PaymentListFilters) => void;
  onClear: () => void;
  className?: string;
};

/**
 * Spec §2 "Payments list" filters: the date range, only pending, only overdue, the descending
 * order switch (off is ascending), clear filters.
 */
export function PaymentFilters({
  filters,
  activeCount,
  isFiltered,
  onApply,
  onClear,
  className,
}: PaymentFiltersProps) {
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
      <div className="mt-4 grid gap-1 border-t border-gray-200 pt-3 dark:border-gray-700">
        <Switch
          checked={filters.onlyPending}
          onChange={(onlyPending) => onApply({ ...filters, onlyPending })}
          label={t('payments.onlyPending')}
          className="rounded-xl"
        />
        <Switch
          checked={filters.onlyOverdue}
          onChange={(onlyOverdue) => onApply({ ...filters, onlyOverdue })}
          label={t('payments.onlyOverdue')}
          className="rounded-xl"
        />
        <Switch
          checked={filters.order === 'desc'}
          onChange={(desc) => onApply({ ...filters, order: desc ? 'desc' : 'asc' })}
          label={t('payments.orderDesc')}
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
