import { useMutation } from '@tanstack/react-query';
import type { TInitPaymentRequest } from '@portal/contract/redsys';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { submitToGateway } from '@/lib/gateway-form';

export type InitPaymentAnswer = ApiResponse<'initPayment'>;

/** Spec §7 "/redsys/init-payment": a new payment attempt and its signed gateway form. */
export async function initPayment(body: TInitPaymentRequest): Promise<InitPaymentAnswer> {
  return apiRequest('initPayment', { body });
}

/**
 * Starts the payment: the attempt is created, `onStarted` remembers it, and the browser leaves
 * for the gateway. The mutation stays pending while the page unloads (the button keeps loading).
 */
export function useInitPayment({ onStarted }: { onStarted: (answer: InitPaymentAnswer) => void }) {
  return useMutation({
    mutationFn: initPayment,
    onSuccess: (answer) => {
      onStarted(answer);
      submitToGateway(answer.url, answer.redsys_params);
    },
  });
}
