import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { PaymentMethod } from '../utils/method-display';

/** Every query of this feature starts with this key; a change to a method invalidates them all. */
export const paymentMethodsKey = ['payment-methods'] as const;

export async function getPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const { methods } = await apiRequest('paymentMethods', signal ? { signal } : {});
  return methods;
}

export const getPaymentMethodsQueryOptions = () =>
  queryOptions({
    queryKey: [...paymentMethodsKey, 'list'],
    queryFn: ({ signal }) => getPaymentMethods(signal),
  });

/** The customer's saved methods (main first, then newest). */
export function usePaymentMethods() {
  return useQuery(getPaymentMethodsQueryOptions());
}

/**
 * One method, read from the list (the API has no call for one): `null` when the customer has no
 * method with this id (unknown, another customer's, deleted).
 */
export function usePaymentMethod(id: string) {
  return useQuery({
    ...getPaymentMethodsQueryOptions(),
    select: (methods) => methods.find((m) => m.id === id) ?? null,
  });
}
