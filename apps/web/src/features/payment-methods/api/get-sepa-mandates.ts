import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

export type SepaMandates = ApiResponse<'sepaMandates'>;
export type SepaMandate = SepaMandates['mandates'][number];

/**
 * The customer's SEPA mandates (newest first) and the creditor a new one is signed for; `creditor`
 * is null where the tenant signs none in the portal. Under the feature's key: adding or deleting
 * a bank account signs, replaces or revokes one, and refreshes this too.
 */
export async function getSepaMandates(signal?: AbortSignal): Promise<SepaMandates> {
  return apiRequest('sepaMandates', signal ? { signal } : {});
}

export const getSepaMandatesQueryOptions = () =>
  queryOptions({
    queryKey: [...paymentMethodsKey, 'sepa-mandates'],
    queryFn: ({ signal }) => getSepaMandates(signal),
  });

export function useSepaMandates() {
  return useQuery(getSepaMandatesQueryOptions());
}
