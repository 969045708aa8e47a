import { customerLimits } from '@portal/contract';
import { decodeMerchantParameters } from '@portal/redsys';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { spanishIban } from './spanish-iban.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { openSignedInApp, type signedIn } from './session.ts';

const iban = spanishIban;

/*
 * The cap of 10 saved methods is kept by "save this card" on a payment too (SECURITY.md, "Limits").
 * Before session 36 a payment started with `save_card: true` (payments/service.ts `initPayment`)
 * never looked at the cap, and its authorisation saved the card whatever the customer already had:
 * one payment at the cap made 11. Now the payment goes on without saving the card (a full list
 * never stands between the customer and paying; its status says `card_saved: false`), and the
 * authorisation saves a card only while there is room, which another method may have taken since
 * the start.
 */
describe.each(engines())('the cap of saved methods and "save this card" on $name', (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let close: () => Promise<void>;
  let n = 500;

  beforeAll(async () => {
    ({ app, me, close } = await openSignedInApp(engine));
  });
  afterAll(async () => close());

  const methods = async () =>
    (await me.get('/payment-methods')).json<{ methods: { id: string }[] }>().methods;
  const addBankAccount = async () => {
    const res = await me.post('/payment-methods/bank-account', {
      iban: iban(++n),
      holder: 'Titular',
      nif: '12345678Z',
      mandate_accepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const fillUpTo = async (count: number) => {
    while ((await methods()).length < count) await addBankAccount();
  };
  /** Starts a payment of the first unpaid instalment with `save_card`. */
  const startSavingCard = async () => {
    const first = (
      await me.post('/payments', {
        datefrom: '20000101',
        dateto: '20991231',
        page: '1',
        pending: true,
        overdue: true,
      })
    ).json<{ payments: { payment_id: string; amount: number }[] }>().payments[0];
    if (!first) throw new Error('no unpaid instalment');
    const res = await me.post('/redsys/init-payment', {
      amount: first.amount,
      payment_ids: [first.payment_id],
      save_card: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json<{
      payment_id: string;
      redsys_params: { Ds_MerchantParameters: string };
    }>();
    const p = decodeMerchantParameters(started.redsys_params.Ds_MerchantParameters);
    return { p, id: started.payment_id };
  };
  /** The gateway authorises it, with a tokenised card in the notification. */
  const authoriseWithCard = async ({ p, id }: { p: Record<string, string>; id: string }) => {
    const note = signedNotification(p, '0000', {
      Ds_Merchant_Identifier: 'f'.repeat(40),
      Ds_Merchant_Cof_Txnid: '2110222140220',
      Ds_ExpiryDate: '3012',
      Ds_Card_Number: '454881******0004',
      Ds_Card_Brand: '1',
    });
    expect((await postNotification(app, note)).statusCode).toBe(200);
    const status = await me.get(`/redsys/payment/${id}/status`);
    return status.json<{ status: string; card_saved?: boolean }>();
  };

  it('saves the card of an addition that took the last place (session 38: its own place refused it)', async () => {
    await fillUpTo(customerLimits.paymentMethods - 1);
    const res = await me.post('/payment-methods/card', { alias: 'Décima' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ payment_id: string }>().payment_id;
    const p = decodeMerchantParameters(
      res.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
        .Ds_MerchantParameters,
    );
    const note = signedNotification(p, '0000', {
      Ds_Amount: '0',
      Ds_TransactionType: '7',
      Ds_Merchant_Identifier: 'e'.repeat(40),
      Ds_Merchant_Cof_Txnid: '2110222140220',
      Ds_ExpiryDate: '3012',
      Ds_Card_Number: '454881******0004',
      Ds_Card_Brand: '1',
    });
    expect((await postNotification(app, note)).statusCode).toBe(200);
    const status = (await me.get(`/redsys/payment/${id}/status`)).json<{
      status: string;
      card_saved: boolean;
    }>();
    // Before: { status: 'failed', card_saved: false } and no card (the token Redsys made lost).
    expect({ status: status.status, card_saved: status.card_saved }).toEqual({
      status: 'paid',
      card_saved: true,
    });
    expect((await methods()).length).toBe(customerLimits.paymentMethods);
  });

  it(`takes the payment but saves no card at the cap of ${customerLimits.paymentMethods}`, async () => {
    await fillUpTo(customerLimits.paymentMethods);
    // Control: the card form is refused at the cap.
    expect((await me.post('/payment-methods/card', {})).statusCode).toBe(409);
    const started = await startSavingCard();
    // No card is asked of Redsys to keep; if a notification brings one anyway, it is not saved.
    expect(started.p.Ds_Merchant_Identifier).toBeUndefined();
    expect(await authoriseWithCard(started)).toMatchObject({ status: 'paid', card_saved: false });
    expect((await methods()).length).toBe(customerLimits.paymentMethods);
  });

  it('saves no card past the cap when another method took the last place after the start', async () => {
    const removable = (await methods()).at(-1);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/demo/api/1.0/payment-methods/${removable?.id ?? ''}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await methods()).length).toBe(customerLimits.paymentMethods - 1);
    const started = await startSavingCard();
    expect(started.p.Ds_Merchant_Identifier).toBe('REQUIRED');
    await addBankAccount();
    expect(await authoriseWithCard(started)).toMatchObject({ status: 'paid', card_saved: false });
    expect((await methods()).length).toBe(customerLimits.paymentMethods);
  });
});
