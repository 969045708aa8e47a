import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { getPaymentMethodsQueryOptions, paymentMethodsKey } from './get-payment-methods';

/**
 * Deletes a saved method. The API refuses (409 `method_in_use`) the main method, one with a
 * pending request and one a payment in progress uses.
 */
export async function deletePaymentMethod(id: string): Promise<void> {
  await apiRequest('deletePaymentMethod', { params: { id } });
}

export function useDeletePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePaymentMethod,
    onSuccess: (_, id) => {
      // Gone at once (the screen moves on without waiting for the list to load again).
      queryClient.setQueryData(getPaymentMethodsQueryOptions().queryKey, (methods) =>
        methods?.filter((m) => m.id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: paymentMethodsKey });
    },
  });
}
