import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const receiptsKey = ['documents', 'receipts'] as const;

/** The customer's completed card payments, newest first: each has a receipt. */
export const getReceiptsQueryOptions = () =>
  queryOptions({
    queryKey: receiptsKey,
    queryFn: async ({ signal }) => (await apiRequest('receipts', { signal })).receipts,
  });

export function useReceipts() {
  return useQuery(getReceiptsQueryOptions());
}
