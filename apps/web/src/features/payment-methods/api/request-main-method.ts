import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, type ApiResponse } from '@/lib/api-client';
import { paymentMethodsKey } from './get-payment-methods';

/**
 * Spec §4 "Main payment method": never changed directly; the request is stored for the provider to
 * review, and the method shows it as pending. Asking twice answers the same pending request.
 * `null` when the method already is the main one (409 `conflict`: the provider's team changed it
 * meanwhile): what was asked for is true, the method is read again and shows it, no failure.
 */
export async function requestMainMethod(
  id: string,
): Promise<ApiResponse<'requestMainMethod'> | null> {
  try {
    return await apiRequest('requestMainMethod', { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.code === 'conflict') return null;
    throw error;
  }
}

export function useRequestMainMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestMainMethod,
    // Awaited: the request settles with the method as it is now (pending, or the main one).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
