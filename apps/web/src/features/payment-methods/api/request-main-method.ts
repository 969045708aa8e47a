import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

/**
 * Spec §4 "Main payment method": never changed directly; the request is stored for the provider to
 * review, and the method shows it as pending. Asking twice answers the same pending request.
 */
export async function requestMainMethod(id: string): Promise<ApiResponse<'requestMainMethod'>> {
  return apiRequest('requestMainMethod', { params: { id } });
}

export function useRequestMainMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestMainMethod,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
