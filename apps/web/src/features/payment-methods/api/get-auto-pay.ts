import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAutoPayResponse } from '@portal/contract/auto-pay';
import { apiRequest } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

export type AutoPay = TAutoPayResponse;

/** Under the feature's key: removing a card (which turns auto-pay off with it) refreshes it too. */
export const getAutoPayQueryOptions = () =>
  queryOptions({
    queryKey: [...paymentMethodsKey, 'auto-pay'],
    queryFn: ({ signal }) => apiRequest('autoPay', { signal }),
  });

/** Which saved card pays the instalments by itself, and which instalments it will pay. */
export function useAutoPay(enabled = true) {
  return useQuery({ ...getAutoPayQueryOptions(), enabled });
}
