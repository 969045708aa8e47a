import { decodeMerchantParameters } from '@portal/redsys';
import type { FastifyInstance } from 'fastify';
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

/** The customer pays the checkout's form with the simulator's test card: the gateway took it. */
export async function payAtSimulator(
  sim: { inject: FastifyInstance['inject'] },
  simUrl: string,
  form: Record<string, string>,
): Promise<void> {
  const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
  const page = await sim.inject({
    method: 'POST',
    url: '/sis/realizarPago',
    payload: new URLSearchParams(form).toString(),
    headers: urlencoded,
  });
  const action = /action="([^"]*tarjeta)"/.exec(page.body)?.[1] ?? '';
  const paid = await sim.inject({
    method: 'POST',
    url: new URL(action, simUrl).pathname,
    payload: new URLSearchParams({
      card_number: '4548812049400004',
      expiry: '12/30',
      cvc: '123',
      action: 'pay',
    }).toString(),
    headers: urlencoded,
  });
  expect([200, 302, 303]).toContain(paid.statusCode);
}
