import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { engines } from './engines.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { openSignedInApp, type signedIn } from './session.ts';

/*
 * A card addition whose notification comes after the reconciliation asked about it saves its card.
 *
 * A card addition (type 7, 0 €) whose notification has not arrived after RECONCILE_AFTER_MINUTES
 * (15) is asked about (reconcile.ts); Redsys' query answers the operation authorised, but a query
 * answer carries no `Ds_Merchant_Identifier` (no token in consultaOperaciones), so
 * `settleFromQuery` -> `saveVerifiedCard` finds no reference to save and marks the attempt
 * `failed`. Before session 36, when the notification (which does carry the token) then arrived,
 * `settle` answered `duplicate` for any card attempt no longer pending: the card Redsys tokenised
 * was never saved. PRODUCT.md: "Whatever arrives later is still honoured". Now an authorised
 * notification with its token saves the card of an addition failed for the lack of one.
 */

const box = createSecretBox(randomBytes(32));

describe.each(engines())('a card addition notified after the query on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, app, me, close } = await openSignedInApp(engine));
  });
  afterAll(async () => close());

  it('saves the card the late notification carries after the query answered it authorised', async () => {
    const res = await me.post('/payment-methods/card', { alias: 'Tarjeta tardía' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ payment_id: string }>().payment_id;
    const p = decodeMerchantParameters(
      res.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
        .Ds_MerchantParameters,
    );

    // The reconciliation, 15 minutes on: the query service says the tokenisation was authorised
    // (what reconcile.ts `paramsOf` builds from the operation: no identifier in a query answer).
    const service = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: 'http://127.0.0.1:9',
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      log: { warn: () => {}, error: () => {} },
    });
    await service.settleFromQuery('demo', {
      Ds_Order: p.Ds_Merchant_Order ?? '',
      Ds_MerchantCode: p.Ds_Merchant_MerchantCode ?? '',
      Ds_Terminal: p.Ds_Merchant_Terminal ?? '',
      Ds_Amount: '0',
      Ds_Currency: '978',
      Ds_Response: '0000',
      Ds_TransactionType: '7',
      Ds_AuthorisationCode: '123456',
    });

    // Then Redsys' notification arrives, with the token.
    const note = signedNotification(p, '0000', {
      Ds_Amount: '0',
      Ds_TransactionType: '7',
      Ds_Merchant_Identifier: 'd'.repeat(40),
      Ds_Merchant_Cof_Txnid: '2110222140220',
      Ds_ExpiryDate: '3012',
      Ds_Card_Number: '557644******8500',
      Ds_Card_Brand: '2',
    });
    expect((await postNotification(app, note)).statusCode).toBe(200);

    const status = (await me.get(`/redsys/payment/${id}/status`)).json<{
      status: string;
      card_saved: boolean;
    }>();
    const cards = (await me.get('/payment-methods'))
      .json<{ methods: { alias: string; card_masked: string | null }[] }>()
      .methods.filter((m) => m.alias === 'Tarjeta tardía');
    // Today: { status: 'failed', card_saved: false, cards: 0 }.
    expect({ status: status.status, card_saved: status.card_saved, cards: cards.length }).toEqual({
      status: 'paid',
      card_saved: true,
      cards: 1,
    });
  });
});
