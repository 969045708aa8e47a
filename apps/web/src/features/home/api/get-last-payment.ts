import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { type ApiDateRange, latestBy, todayApiDate } from '@/lib/dates';

export type LastPayment = ApiResponse<'payments'>['payments'][number];

/**
 * Spec §7: home asks for page 1 of the range and picks the latest `due_date` (the server sorts
 * newest first, so page 1 holds it); `null` when there is none. The range stops at today: an
 * instalment due in December is not the "last payment" (it showed the furthest one still to come,
 * finding #2); what is coming next is the balance's "Próximo vencimiento".
 */
export async function getLastPayment(
  range: ApiDateRange,
  signal?: AbortSignal,
): Promise<LastPayment | null> {
  const today = todayApiDate();
  const dateto = range.dateto < today ? range.dateto : today;
  const { payments } = await apiRequest('payments', {
    body: { ...range, dateto, page: '1', order: 'desc' },
    ...(signal ? { signal } : {}),
  });
  return latestBy(payments, (payment) => payment.due_date) ?? null;
}

export const getLastPaymentQueryOptions = (range: ApiDateRange) =>
  queryOptions({
    queryKey: ['payments', 'last', range],
    queryFn: ({ signal }) => getLastPayment(range, signal),
  });

export function useLastPayment(range: ApiDateRange) {
  return useQuery(getLastPaymentQueryOptions(range));
}
