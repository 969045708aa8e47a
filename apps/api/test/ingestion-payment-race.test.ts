import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * Session 34's money review, PostgreSQL (two connections at once): SECURITY.md promises that "instalments
 * being paid by card cannot be changed by a batch" (ingestion.test.ts › "locks an instalment while
 * a card payment of it waits for the gateway"). The batch learns it from `in_attempt`, an EXISTS
 * over payment_attempt_items computed in the same SELECT ... FOR UPDATE that locks the instalments
 * (ingestion/repository.ts lockInstalments, and lockInstalmentsByKey for the status route). When
 * that statement has to WAIT for the lock of a card payment being started, it reads the items with
 * the snapshot it took before waiting: the payment's item, committed while it waited, is not seen,
 * `in_attempt` is false, and the batch changes the instalment the customer is paying on the card
 * page. The customer then pays the old amount and the instalment is not paid.
 *
 * Made deterministic with a third transaction that holds the instalment's lock for a moment (as
 * any other start or settlement of it does): the start queues first, the batch second.
 */

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'a batch racing a card payment on $name',
  (engine) => {
    let app: FastifyInstance;
    let apiKey: string;

    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
      ({ app, apiKey } = fixture);
    });
    afterAll(async () => fixture.close());

    const putInvoice = (id: string, cents: number) => fixture.putInvoice(id, cents);
    const instalment = (invoiceId: string) => fixture.instalmentOf(invoiceId);
    const race = (itemId: string, provider: () => ReturnType<typeof putInvoice>) =>
      fixture.raceWithStart(itemId, provider);
    const pay = (started: Awaited<ReturnType<typeof putInvoice>>) => fixture.payStarted(started);

    it('never lets a batch change the amount of an instalment whose card payment started while the batch waited', async () => {
      expect((await putInvoice('REV2-RACE-1', 5000)).statusCode).toBe(200);
      const item = await instalment('REV2-RACE-1');
      if (!item) throw new Error('no instalment');
      // The provider's ERP raises the instalment to 70 € as the customer starts paying its 50 €.
      const { started, providerCall } = await race(item.id, () => putInvoice('REV2-RACE-1', 7000));
      const amountWhileOpen = Number((await instalment('REV2-RACE-1'))?.amount_cents);
      await pay(started);
      // Before the fix: the batch was answered 200 and the instalment became 70 € while its card
      // payment of 50 € was open; the authorisation then paid nothing (the instalment is over
      // what was charged), the 50 € went to a refund, the instalment is still owed.
      expect({
        batchErrors: providerCall.json<{ errors?: object }>().errors,
        amountWhileOpen,
        status: (await instalment('REV2-RACE-1'))?.status,
      }).toEqual({
        batchErrors: { 'invoices.0.instalments.0.amount_cents': ['instalment_locked'] },
        amountWhileOpen: 5000,
        status: 'paid',
      });
    });

    it('never lets the provider set the state of an instalment whose card payment started while the call waited', async () => {
      expect((await putInvoice('REV2-RACE-2', 5000)).statusCode).toBe(200);
      const item = await instalment('REV2-RACE-2');
      if (!item) throw new Error('no instalment');
      // The provider cancels the instalment as the customer starts paying it.
      const { started, providerCall } = await race(item.id, () =>
        app.inject({
          method: 'POST',
          url: '/demo/api/1.0/admin/instalments/status',
          headers: { authorization: `Bearer ${apiKey}` },
          payload: { changes: [{ invoice_id: 'REV2-RACE-2', seq: 1, status: 'cancelled' }] },
        }),
      );
      const statusWhileOpen = (await instalment('REV2-RACE-2'))?.status;
      await pay(started);
      // Before the fix: 200, the instalment cancelled under the open card payment; the customer's
      // 50 € then paid nothing and went to a refund.
      expect({
        callErrors: providerCall.json<{ errors?: object }>().errors,
        statusWhileOpen,
        status: (await instalment('REV2-RACE-2'))?.status,
      }).toEqual({
        callErrors: { 'changes.0.status': ['instalment_locked'] },
        statusWhileOpen: 'pending',
        status: 'paid',
      });
    });
  },
);
