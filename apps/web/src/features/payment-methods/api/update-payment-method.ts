import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { PaymentMethod } from '../utils/method-display';
import { paymentMethodsKey } from './get-payment-methods';

export type PaymentMethodChanges = { alias?: string; holder?: string };

/** A method's alias, and a bank account's holder (a card's holder is the bank's). */
export async function updatePaymentMethod(
  id: string,
  changes: PaymentMethodChanges,
): Promise<PaymentMethod> {
  const { method } = await apiRequest('updatePaymentMethod', { params: { id }, body: changes });
  return method;
}

export function useUpdatePaymentMethod(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PaymentMethodChanges) => updatePaymentMethod(id, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
