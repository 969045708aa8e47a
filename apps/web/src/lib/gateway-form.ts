import type { ApiResponse } from './api-client';

/** The signed fields of a Redsys form (a payment and a card tokenisation share them). */
export type RedsysParams = ApiResponse<'initPayment'>['redsys_params'];

/**
 * Spec §7 "/redsys/init-payment": "a hidden form with those parameters is submitted by POST to the
 * card provider's payment page and removed after 100 ms". Only http(s) addresses are followed.
 * The checkout and the add-card screen both hand over this way.
 */
export function submitToGateway(url: string, params: RedsysParams, doc: Document = document): void {
  const action = new URL(url, doc.baseURI);
  if (action.protocol !== 'https:' && action.protocol !== 'http:') {
    throw new Error(`Refusing to post the card form to ${action.protocol}`);
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
