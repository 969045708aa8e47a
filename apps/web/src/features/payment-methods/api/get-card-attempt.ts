import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { type CardAttemptStatus, cardAttemptDelay } from '../utils/card-attempt';
import { paymentMethodsKey } from './get-payment-methods';

/** The state of a card tokenisation (the attempt's id comes back in `?card_attempt=`). */
export async function getCardAttempt(id: string, signal?: AbortSignal): Promise<CardAttemptStatus> {
  return apiRequest('paymentStatus', { params: { id }, ...(signal ? { signal } : {}) });
}

/**
 * Asks until the attempt is settled, pausing longer each time (utils/card-attempt.ts); `polling`
 * false stops asking (the time is up). Never cached: every check must reach the server.
 */
export function useCardAttempt(id: string, { polling }: { polling: boolean }) {
  return useQuery({
    queryKey: [...paymentMethodsKey, 'card-attempt', id],
    queryFn: ({ signal }) => getCardAttempt(id, signal),
    staleTime: 0,
    gcTime: 0,
    // A failed check (no network, a 5xx) is only a reason to ask again; a 4xx answers for good.
    retry: false,
    refetchInterval: (query) => {
      const { data, error, dataUpdateCount, errorUpdateCount } = query.state;
      if (!polling || (data && data.status !== 'pending')) return false;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      return cardAttemptDelay(dataUpdateCount + errorUpdateCount);
    },
  });
}
