import type { ApiResponse } from '@/lib/api-client';

export type RedsysParams = ApiResponse<'addCard'>['redsys_params'];

/**
 * Spec §7 "/redsys/init-payment": a hidden form with the signed parameters is submitted by POST to
 * the card gateway's page and removed after 100 ms; only http(s) addresses are followed. The same
 * hand-over as the checkout's (features/checkout/api/init-payment.ts), which a feature may not
 * import.
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
