import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

/** The filters of the invoice list as the API takes them (spec §7 "/invoices"). */
export type InvoiceListFilters = {
  /** `yyyymmdd` */
  datefrom: string;
  /** `yyyymmdd` */
  dateto: string;
  /** Only paid invoices. */
  paid: boolean;
  /** Only invoices with something still owed. */
  pending: boolean;
};

export type InvoicesPage = ApiResponse<'invoices'>;
export type InvoiceListItem = InvoicesPage['invoices'][number];

/** One page of 20 invoices, newest first; pages start at 1 and travel as strings (spec §7). */
export function getInvoices(
  filters: InvoiceListFilters,
  page: number,
  signal?: AbortSignal,
): Promise<InvoicesPage> {
  return apiRequest('invoices', {
    body: {
      datefrom: filters.datefrom,
      dateto: filters.dateto,
      page: String(page),
      ...(filters.paid ? { paid: true } : {}),
      ...(filters.pending ? { pending: true } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

export const getInvoicesQueryOptions = (filters: InvoiceListFilters) =>
  infiniteQueryOptions({
    queryKey: ['invoices', 'list', filters],
    queryFn: ({ pageParam, signal }) => getInvoices(filters, pageParam, signal),
    initialPageParam: 1,
    // Spec §4 "load more (page increments)".
    getNextPageParam: (last: InvoicesPage, pages: InvoicesPage[]) =>
      last.has_more ? pages.length + 1 : undefined,
  });

export function useInvoices(filters: InvoiceListFilters) {
  return useInfiniteQuery(getInvoicesQueryOptions(filters));
}
