import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAddBankAccountRequest } from '@portal/contract/account';
import { apiRequest } from '@/lib/api-client';
import type { PaymentMethod } from '../utils/method-display';
import { paymentMethodsKey } from './get-payment-methods';

/** Adds a bank account; it stays unverified until the provider verifies it. */
export async function addBankAccount(body: TAddBankAccountRequest): Promise<PaymentMethod> {
  const { method } = await apiRequest('addBankAccount', { body });
  return method;
}

export function useAddBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBankAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
