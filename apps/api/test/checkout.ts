import { decodeMerchantParameters } from '@portal/redsys';
import { expect } from 'vitest';
import type { signedIn } from './session.ts';

type Customer = Awaited<ReturnType<typeof signedIn>>;
export type Unpaid = { payment_id: string; amount: number };

/** The customer's first unpaid instalment, as the payments list shows it (pending or overdue). */
export async function firstUnpaid(who: Customer): Promise<Unpaid> {
  const [first] = (
    await who.post('/payments', {
      datefrom: '20000101',
      dateto: '20991231',
      page: '1',
      pending: true,
      overdue: true,
    })
  ).json<{ payments: Unpaid[] }>().payments;
  if (!first) throw new Error('the customer has no unpaid instalment left');
  return first;
}

/**
 * The customer starts paying `item` (their first unpaid instalment unless told) by card and is on
 * the gateway's page: the attempt's id, the form posted to Redsys and its decoded parameters.
 */
export async function startCheckout(who: Customer, item?: Unpaid) {
  const target = item ?? (await firstUnpaid(who));
  const res = await who.post('/redsys/init-payment', {
    amount: target.amount,
    payment_ids: [target.payment_id],
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
  return {
    id: body.payment_id,
    item: target,
    form: body.redsys_params,
    p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
  };
}
