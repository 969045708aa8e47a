import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCustomerSession } from '@portal/contract';
import { ApiError, apiRequest } from '@/lib/api-client';

export type CustomerSession = TCustomerSession;

const sessionsKey = ['sessions'] as const;

const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionsKey,
    queryFn: async ({ signal }) => (await apiRequest('sessions', { signal })).sessions,
  });

/** "Your devices": where the customer is signed in, last used first, this one marked. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/**
 * Ends one session of the list. The server answers the 404 of every unknown session for one that
 * has already ended (from that device, another tab, the "was this you?" link): what the customer
 * asked for is true, so it counts as ended (none this time) rather than as a failure.
 */
async function endSession(id: string): Promise<number> {
  try {
    return (await apiRequest('endSession', { params: { id } })).ended;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'not_found') return 0;
    throw error;
  }
}

/**
 * Ends one session (`id`) or every other one (`'others'`). The ended rows leave the list at once;
 * the list is read again so that it shows what the server holds.
 */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (which: string) =>
      which === 'others' ? (await apiRequest('endOtherSessions', {})).ended : endSession(which),
    onSuccess: (_, which) => {
      queryClient.setQueryData(sessionsQueryOptions().queryKey, (sessions) =>
        sessions?.filter((s) => (which === 'others' ? s.current : s.id !== which)),
      );
      void queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
  });
}

/** The "was this you?" e-mail's link: ends the session it was sent for (no sign-in needed). */
export async function endSessionByLink(token: string): Promise<number> {
  return (await apiRequest('endSessionByLink', { body: { token } })).ended;
}
