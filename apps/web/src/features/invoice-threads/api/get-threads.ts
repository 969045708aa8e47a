import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { unreadThreads } from '@/lib/unread-threads';

export type ThreadsPage = ApiResponse<'invoiceThreads'>;
export type ThreadSummary = ThreadsPage['threads'][number];

/** Every query key of this feature starts here: a new message refreshes them all at once. */
export const threadsKey = ['invoice-threads'] as const;

/** Every list answer carries the customer's unread count: the menu's badge takes it. */
function withUnread(page: ThreadsPage): ThreadsPage {
  unreadThreads.set(page.unread);
  return page;
}

/** The customer's conversations (newest activity first), or those about one invoice. */
export async function getThreads(invoiceId?: string, signal?: AbortSignal): Promise<ThreadsPage> {
  return withUnread(
    await apiRequest('invoiceThreads', {
      body: invoiceId ? { invoice_id: invoiceId } : {},
      ...(signal ? { signal } : {}),
    }),
  );
}

export const getThreadsQueryOptions = (invoiceId?: string) =>
  queryOptions({
    queryKey: [...threadsKey, 'list', invoiceId ?? null],
    queryFn: ({ signal }) => getThreads(invoiceId, signal),
  });

export function useThreads(invoiceId?: string) {
  return useQuery(getThreadsQueryOptions(invoiceId));
}

/** Every conversation, a page at a time (the list screen's "Ver más"). */
export function useThreadPages() {
  return useInfiniteQuery({
    queryKey: [...threadsKey, 'list', 'pages'],
    queryFn: async ({ pageParam, signal }) =>
      withUnread(await apiRequest('invoiceThreads', { body: { page: pageParam }, signal })),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.has_more ? page + 1 : undefined),
  });
}
