import { useMutation } from '@tanstack/react-query';
import type { TInitPaymentRequest } from '@portal/contract/redsys';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type InitPaymentAnswer = ApiResponse<'initPayment'>;
export type RedsysParams = InitPaymentAnswer['redsys_params'];

/** Spec §7 "/redsys/init-payment": a new payment attempt and its signed gateway form. */
export async function initPayment(body: TInitPaymentRequest): Promise<InitPaymentAnswer> {
  return apiRequest('initPayment', { body });
}

/**
 * Spec §7: "a hidden form with those parameters is submitted by POST to the card provider's
 * payment page and removed after 100 ms". Only http(s) addresses are followed.
 */
export function submitToGateway(url: string, params: RedsysParams, doc: Document = document): void {
  const action = new URL(url, doc.baseURI);
  if (action.protocol !== 'https:' && action.protocol !== 'http:') {
    throw new Error(`Refusing to post the payment form to ${action.protocol}`);
  }
  const form = doc.createElement('form');
  form.method = 'POST';
  form.action = action.href;
  form.hidden = true;
  for (const [name, value] of Object.entries(params)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
  setTimeout(() => form.remove(), 100);
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
