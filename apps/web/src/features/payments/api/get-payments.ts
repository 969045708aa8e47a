import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

/**
 * The filters of the payments list (spec §2 "Payments list"). The spec's client filtered and
 * sorted on its side; with pages of 20 that hides items, so the server does both.
 */
export type PaymentListFilters = {
  /** `yyyymmdd` */
  datefrom: string;
  /** `yyyymmdd` */
  dateto: string;
  onlyPending: boolean;
  onlyOverdue: boolean;
  /** By due date; the one switch shown is "descending" (spec §2), off means ascending. */
  order: 'asc' | 'desc';
};

export type PaymentsPage = ApiResponse<'payments'>;
export type PaymentListItem = PaymentsPage['payments'][number];

export function getPayments(
  filters: PaymentListFilters,
  page: number,
  signal?: AbortSignal,
): Promise<PaymentsPage> {
  return apiRequest('payments', {
    body: {
      datefrom: filters.datefrom,
      dateto: filters.dateto,
      page: String(page),
      order: filters.order,
      ...(filters.onlyPending ? { pending: true } : {}),
      ...(filters.onlyOverdue ? { overdue: true } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

export const getPaymentsQueryOptions = (filters: PaymentListFilters) =>
  infiniteQueryOptions({
    queryKey: ['payments', 'list', filters],
    queryFn: ({ pageParam, signal }) => getPayments(filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: PaymentsPage, pages: PaymentsPage[]) =>
      last.has_more ? pages.length + 1 : undefined,
  });

export function usePayments(filters: PaymentListFilters) {
  return useInfiniteQuery(getPaymentsQueryOptions(filters));
}
