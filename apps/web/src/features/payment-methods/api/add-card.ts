import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { submitToGateway } from '@/lib/gateway-form';

export type AddCardAnswer = ApiResponse<'addCard'>;

/**
 * Starts saving a card: a Redsys tokenisation (0 €). The answer is the signed gateway form; the
 * card's number and CVC are typed on the gateway's page only (PCI DSS SAQ A).
 */
export async function addCard(body: {
  alias?: string;
  language: Language;
}): Promise<AddCardAnswer> {
  return apiRequest('addCard', { body });
}

/**
 * Starts the tokenisation and hands the browser to the gateway, which sends it back to
 * `/metodos-de-pago?card_attempt=<id>`. The mutation stays pending while the page unloads.
 */
export function useAddCard() {
  return useMutation({
    mutationFn: addCard,
    onSuccess: (answer) => submitToGateway(answer.url, answer.redsys_params),
  });
}
