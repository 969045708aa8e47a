import { apiDateToInput, defaultPaymentsRange, inputToApiDate } from '@/lib/dates';
import type { PaymentListFilters } from '../api/get-payments';

/**
 * The payments list keeps its applied filters in the address (`?pending=1&overdue=1&order=asc`),
 * so the invoice list can link to the overdue ones and going back keeps the search. Missing or
 * invalid values fall back to the defaults: five years back to a year ahead, no filter, newest
 * due date first (the descending switch on).
 */
export function paymentFiltersFromSearch(
  search: URLSearchParams,
  now: Date = new Date(),
): PaymentListFilters {
  const defaults = defaultPaymentsRange(now);
  const datefrom = inputToApiDate(search.get('from') ?? '') ?? defaults.datefrom;
  const dateto = inputToApiDate(search.get('to') ?? '') ?? defaults.dateto;
  const range = datefrom <= dateto ? { datefrom, dateto } : defaults;
  return {
    ...range,
    onlyPending: search.get('pending') === '1',
    onlyOverdue: search.get('overdue') === '1',
    order: search.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

/** The address query of some filters; defaults are left out. */
export function paymentFiltersToSearch(
  filters: PaymentListFilters,
  now: Date = new Date(),
): URLSearchParams {
  const defaults = defaultPaymentsRange(now);
  const search = new URLSearchParams();
  if (filters.datefrom !== defaults.datefrom) search.set('from', apiDateToInput(filters.datefrom));
  if (filters.dateto !== defaults.dateto) search.set('to', apiDateToInput(filters.dateto));
  if (filters.onlyPending) search.set('pending', '1');
  if (filters.onlyOverdue) search.set('overdue', '1');
  if (filters.order === 'asc') search.set('order', 'asc');
  return search;
}
