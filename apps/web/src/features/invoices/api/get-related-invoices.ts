import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type RelatedInvoices = ApiResponse<'relatedInvoices'>;

/** The customer's previous and next invoice by date (spec §7 "/invoices/related"). */
export function getRelatedInvoices(
  invoiceId: string,
  signal?: AbortSignal,
): Promise<RelatedInvoices> {
  return apiRequest('relatedInvoices', {
    body: { invoice_id: invoiceId },
    ...(signal ? { signal } : {}),
  });
}

export const getRelatedInvoicesQueryOptions = (invoiceId: string) =>
  queryOptions({
    queryKey: ['invoices', 'related', invoiceId],
    queryFn: ({ signal }) => getRelatedInvoices(invoiceId, signal),
  });

export function useRelatedInvoices(invoiceId: string) {
  return useQuery(getRelatedInvoicesQueryOptions(invoiceId));
}
