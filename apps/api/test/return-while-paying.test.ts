import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * Money review 2, PostgreSQL (two connections at once): a returned direct debit reported through
 * POST /admin/instalments/returns while the customer starts paying the same instalment by card.
 *
 * docs/ingestion.md: a return of an instalment "in a card payment waiting for the gateway's answer
 * is `instalment_locked`". Session 34 fixed the snapshot bug behind that check in the ingestion
 * module (lockInstalments / lockInstalmentsByKey: lock first, read `in_attempt` in a second
 * statement), but returned-debits/repository.ts `lockInstalments` still computes `in_attempt` in
 * the same SELECT ... FOR UPDATE that waits for the lock: after waiting for the card payment's
 * start it reads payment_attempt_items with the snapshot taken BEFORE the wait, misses the new item,
 * and records the return under the open payment.
 * Today: 200; the instalment becomes `returned` (the customer is told "returned, pay it" while
 * paying; with fees charged, the bank's fee is recorded as owed but the open payment, started
 * without it, pays the instalment and the fee is never collected). Should: `returns.0`
 * `instalment_locked`, as when the payment was already open, and as the status route answers.
 *
 * Made deterministic as ingestion-payment-race.test.ts: a third transaction holds the instalment's
 * lock for a moment; the start queues first, the report second.
 */

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'a returned debit reported while a card payment starts on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let apiKey: string;

    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
      ({ db, app, apiKey } = fixture);
    });
    afterAll(async () => fixture.close());

    const putInvoice = (id: string, cents: number) => fixture.putInvoice(id, cents);
    const instalment = (invoiceId: string) => fixture.instalmentOf(invoiceId);
    const race = (itemId: string, provider: () => ReturnType<typeof putInvoice>) =>
      fixture.raceWithStart(itemId, provider);
    const pay = (started: Awaited<ReturnType<typeof putInvoice>>) => fixture.payStarted(started);

    it('refuses a return of an instalment whose card payment started while the report waited', async () => {
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
      );
      expect((await putInvoice('REV2M-RET-RACE', 5000)).statusCode).toBe(200);
      const item = await instalment('REV2M-RET-RACE');
      if (!item) throw new Error('no instalment');
      // The provider reports the bank's return (fee 3.50 €) as the customer starts paying the 50 €.
      const { started, providerCall } = await race(item.id, () =>
        app.inject({
          method: 'POST',
          url: '/demo/api/1.0/admin/instalments/returns',
          headers: { authorization: `Bearer ${apiKey}` },
          payload: {
            returns: [
              {
                invoice_id: 'REV2M-RET-RACE',
                seq: 1,
                return_date: '2026-01-09',
                reason_code: 'AM04',
                fee_cents: 350,
              },
            ],
          },
        }),
      );
      const statusWhileOpen = (await instalment('REV2M-RET-RACE'))?.status;
      await pay(started);
      // Today: { callErrors: undefined (200), statusWhileOpen: 'returned' }.
      expect({
        callErrors: providerCall.json<{ errors?: object }>().errors,
        statusWhileOpen,
      }).toEqual({
        callErrors: { 'returns.0': ['instalment_locked'] },
        statusWhileOpen: 'pending',
      });
    });
  },
);
