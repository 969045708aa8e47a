import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

export type BankTransferInfo = ApiResponse<'bankTransferInfo'>;

/**
 * The tenant's account for transfers, the customer's reference and the EPC QR payload; a 404 when
 * the tenant has no transfer account.
 */
export async function getBankTransferInfo(signal?: AbortSignal): Promise<BankTransferInfo> {
  return apiRequest('bankTransferInfo', signal ? { signal } : {});
}

export const getBankTransferInfoQueryOptions = () =>
  queryOptions({
    queryKey: [...paymentMethodsKey, 'bank-transfer'],
    queryFn: ({ signal }) => getBankTransferInfo(signal),
  });

export function useBankTransferInfo() {
  return useQuery(getBankTransferInfoQueryOptions());
}
