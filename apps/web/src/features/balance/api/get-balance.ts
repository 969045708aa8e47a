import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type Balance = ApiResponse<'balance'>;

/**
 * What the customer owes today, how much of it is overdue and what one "Pagar" pays
 * (`GET /balance`), all computed by the server on the Madrid day.
 */
export function getBalance(signal?: AbortSignal): Promise<Balance> {
  return apiRequest('balance', signal ? { signal } : {});
}

/** Under `payments`: whatever refreshes the payments after paying refreshes this too. */
export const getBalanceQueryOptions = () =>
  queryOptions({
    queryKey: ['payments', 'balance'],
    queryFn: ({ signal }) => getBalance(signal),
  });

export function useBalance() {
  return useQuery(getBalanceQueryOptions());
}
