import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

/**
 * "Activar cuenta": asks the provider to verify an unverified bank account. `null` when there is
 * nothing to verify any more (409 `conflict`: the provider verified it meanwhile, by its review of
 * another request or its ERP): not a failure to retry, the method is read again and shows as it is.
 */
export async function requestVerification(
  id: string,
): Promise<ApiResponse<'requestVerification'> | null> {
  try {
    return await apiRequest('requestVerification', { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.code === 'conflict') return null;
    throw error;
  }
}

export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestVerification,
    // Awaited: the request settles with the method as it is now (pending review, or verified).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
