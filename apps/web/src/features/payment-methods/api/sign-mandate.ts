import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSignBankAccountMandateRequest } from '@portal/contract/account';
import { apiRequest } from '@/lib/api-client';
import type { PaymentMethod } from '../utils/method-display';
import { paymentMethodsKey } from './get-payment-methods';

/**
 * Signs the SEPA mandate of a bank account already saved (one saved before mandates existed): the
 * API refuses (409 `mandate_active`) one that already has an active mandate.
 */
export async function signMandate({
  id,
  body,
}: {
  id: string;
  body: TSignBankAccountMandateRequest;
}): Promise<PaymentMethod> {
  const { method } = await apiRequest('signBankAccountMandate', { params: { id }, body });
  return method;
}

export function useSignMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signMandate,
    // The mandates live under the same key: the list and the card's action refresh together.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
  });
}
