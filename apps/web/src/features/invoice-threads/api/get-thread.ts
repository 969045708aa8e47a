import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { threadsKey } from './get-threads';

export type ThreadDetail = ApiResponse<'invoiceThread'>;
export type ThreadMessage = ThreadDetail['messages'][number];

/** One conversation with its messages; the server marks it read. */
export function getThread(id: string, signal?: AbortSignal): Promise<ThreadDetail> {
  return apiRequest('invoiceThread', { params: { id }, ...(signal ? { signal } : {}) });
}

export const getThreadQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...threadsKey, 'detail', id],
    queryFn: ({ signal }) => getThread(id, signal),
  });

export function useThread(id: string) {
  return useQuery(getThreadQueryOptions(id));
}
