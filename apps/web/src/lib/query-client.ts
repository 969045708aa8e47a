import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { getAuth, subscribeAuth } from './auth-store';

/** A failed call worth repeating: no answer, or a server error. A 4xx would answer the same. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

/**
 * The app's one cache of server data (@tanstack/react-query). Lists stay fresh for a minute, so
 * going from a list to a detail and back shows the list at once, where it was.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => failureCount < 2 && isRetryable(error),
    },
  },
});

/** Who the cached answers belong to: the signed-in customer, or nobody. */
const ownerOf = (): string => {
  const { user, accessToken } = getAuth();
  return accessToken ? (user?.id ?? 'anonymous-token') : '';
};

// Cached answers belong to one customer: signing out or in as someone else empties the cache, so
// nobody ever sees the previous customer's invoices, even for a moment. A refreshed token of the
// same customer keeps it.
let owner = ownerOf();
subscribeAuth(() => {
  const next = ownerOf();
  if (next !== owner) {
    owner = next;
    queryClient.clear();
  }
});
