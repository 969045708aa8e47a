import { apiDateToInput, defaultInvoiceRange, inputToApiDate } from '@/lib/dates';
import type { InvoiceListFilters } from '../api/get-invoices';

/**
 * The invoice list keeps its applied filters in the address (`?from=2024-01-01&to=..&paid=1`),
 * so going back from a detail, reloading or sharing the link shows the same search. Missing or
 * invalid values fall back to the defaults of spec §9 (five years ago to today, no filter).
 */
export function invoiceFiltersFromSearch(
  search: URLSearchParams,
  now: Date = new Date(),
): InvoiceListFilters {
  const defaults = defaultInvoiceRange(now);
  const datefrom = inputToApiDate(search.get('from') ?? '');
  const dateto = inputToApiDate(search.get('to') ?? '');
  const range =
    datefrom && dateto && datefrom <= dateto
      ? { datefrom, dateto }
      : datefrom && !dateto && datefrom <= defaults.dateto
        ? { datefrom, dateto: defaults.dateto }
        : !datefrom && dateto && defaults.datefrom <= dateto
          ? { datefrom: defaults.datefrom, dateto }
          : defaults;
  return { ...range, paid: search.get('paid') === '1', pending: search.get('pending') === '1' };
}

/** The address query of some filters; defaults are left out. */
export function invoiceFiltersToSearch(
  filters: InvoiceListFilters,
  now: Date = new Date(),
): URLSearchParams {
  const defaults = defaultInvoiceRange(now);
  const search = new URLSearchParams();
  if (filters.datefrom !== defaults.datefrom) search.set('from', apiDateToInput(filters.datefrom));
  if (filters.dateto !== defaults.dateto) search.set('to', apiDateToInput(filters.dateto));
  if (filters.paid) search.set('paid', '1');
  if (filters.pending) search.set('pending', '1');
  return search;
}
