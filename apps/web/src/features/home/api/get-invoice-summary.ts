import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import type { ApiDateRange } from '@/lib/dates';

export type InvoiceSummary = ApiResponse<'invoiceSummary'>['summary'];

/** Pending invoices and pending amount in a range (spec §7 "/invoices/summary"). */
export async function getInvoiceSummary(
  range: ApiDateRange,
  signal?: AbortSignal,
): Promise<InvoiceSummary> {
  const { summary } = await apiRequest('invoiceSummary', {
    body: range,
    ...(signal ? { signal } : {}),
  });
  return summary;
}

export const getInvoiceSummaryQueryOptions = (range: ApiDateRange) =>
  queryOptions({
    queryKey: ['invoices', 'summary', range],
    queryFn: ({ signal }) => getInvoiceSummary(range, signal),
  });

export function useInvoiceSummary(range: ApiDateRange) {
  return useQuery(getInvoiceSummaryQueryOptions(range));
}
