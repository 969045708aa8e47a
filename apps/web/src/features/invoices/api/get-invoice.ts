import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type InvoiceDetail = ApiResponse<'invoice'>['invoice'];

/**
 * One invoice with its lines and instalments. The API looks it up by id, so the spec's search over
 * ten pages of the list (§7) is not needed; a foreign or unknown id is a 404 `not_found`.
 */
export async function getInvoice(invoiceId: string, signal?: AbortSignal): Promise<InvoiceDetail> {
  const { invoice } = await apiRequest('invoice', {
    body: { invoice_id: invoiceId },
    ...(signal ? { signal } : {}),
  });
  return invoice;
}

export const getInvoiceQueryOptions = (invoiceId: string) =>
  queryOptions({
    queryKey: ['invoices', 'detail', invoiceId],
    queryFn: ({ signal }) => getInvoice(invoiceId, signal),
  });

export function useInvoice(invoiceId: string) {
  return useQuery(getInvoiceQueryOptions(invoiceId));
}
