import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

/** "Activar cuenta": asks the provider to verify an unverified bank account. */
export async function requestVerification(id: string): Promise<ApiResponse<'requestVerification'>> {
  return apiRequest('requestVerification', { params: { id } });
}

export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestVerification,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
