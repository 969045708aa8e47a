import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { type ApiDateRange, latestBy } from '@/lib/dates';

export type LastInvoice = ApiResponse<'invoices'>['invoices'][number];

/**
 * Spec §7: home asks for page 1 of the range and picks the latest `invoice_date`; `null` when the
 * customer has no invoice in it.
 */
export async function getLastInvoice(
  range: ApiDateRange,
  signal?: AbortSignal,
): Promise<LastInvoice | null> {
  const { invoices } = await apiRequest('invoices', {
    body: { ...range, page: '1' },
    ...(signal ? { signal } : {}),
  });
  return latestBy(invoices, (invoice) => invoice.invoice_date) ?? null;
}

export const getLastInvoiceQueryOptions = (range: ApiDateRange) =>
  queryOptions({
    queryKey: ['invoices', 'last', range],
    queryFn: ({ signal }) => getLastInvoice(range, signal),
  });

export function useLastInvoice(range: ApiDateRange) {
  return useQuery(getLastInvoiceQueryOptions(range));
}
