import { customerLimits } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { spanishIban } from './spanish-iban.ts';
import { signedIn } from './session.ts';

const iban = spanishIban;

/**
 * Caps per customer (customer-limits.ts): saved payment methods, card additions waiting for the
 * gateway, requests waiting for the provider. Past a cap the answer is a 409 with its own code,
 * nothing is written, and another customer is not affected.
 */
describe.each(engines())('caps per customer on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let n = 0;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  type Method = { id: string; kind: string; status: string; is_main: boolean };
  const methods = async (who = me) =>
    (await who.get('/payment-methods')).json<{ methods: Method[] }>().methods;
  const addAccount = (who = me) =>
    who.post('/payment-methods/bank-account', {
      iban: iban(++n),
      holder: 'Titular',
      nif: '12345678Z',
      mandate_accepted: true,
    });
  const writes = () =>
    db.withOwner(async (sql) => {
      const [row] = await sql.query<{ m: number; r: number; a: number }>(
        `SELECT (SELECT count(*)::int FROM payment_methods) AS m,
                (SELECT count(*)::int FROM payment_method_requests) AS r,
                (SELECT count(*)::int FROM payment_attempts) AS a`,
      );
      return row;
    });
  const expectRefused = (res: { statusCode: number; json: () => unknown }, code: string) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: expect.any(String), code });
  };

  const room = async (who = me) =>
    (await who.get('/payment-methods')).json<{ room_for_another: boolean }>().room_for_another;

  it(`keeps at most ${customerLimits.paymentMethods} payment methods; deleting one makes room`, async () => {
    expect(await room()).toBe(true);
    while ((await methods()).length < customerLimits.paymentMethods)
      expect((await addAccount()).statusCode).toBe(201);
    // The list says so before anything is tried (the checkout's "save this card").
    expect(await room()).toBe(false);
    expect(await room(other)).toBe(true);
    const before = await writes();
    expectRefused(await addAccount(), 'payment_method_limit');
    expectRefused(await me.post('/payment-methods/card', {}), 'payment_method_limit');
    expect(await writes()).toEqual(before);
    // Another customer of the same tenant is not affected.
    expect((await addAccount(other)).statusCode).toBe(201);

    const spare = (await methods()).find((m) => !m.is_main && m.kind === 'bank_account');
    const removed = await app.inject({
      method: 'DELETE',
      url: `/demo/api/1.0/payment-methods/${spare?.id ?? ''}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await room()).toBe(true);
    expect((await addAccount()).statusCode).toBe(201);
  });

  it(`keeps at most ${customerLimits.pendingRequests} requests waiting for review; asking again for one still answers it`, async () => {
    const unverified = (await methods()).filter(
      (m) => m.kind === 'bank_account' && m.status === 'unverified',
    );
    expect(unverified.length).toBeGreaterThan(customerLimits.pendingRequests);
    const ids: string[] = [];
    for (const m of unverified.slice(0, customerLimits.pendingRequests)) {
      const res = await me.post(`/payment-methods/${m.id}/verification-request`, {});
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json<{ request_id: string }>().request_id);
    }
    const before = await writes();
    const next = unverified[customerLimits.pendingRequests];
    expectRefused(
      await me.post(`/payment-methods/${next?.id ?? ''}/verification-request`, {}),
      'pending_request_limit',
    );
    const main = (await methods()).find((m) => !m.is_main && m.status === 'active');
    if (main)
      expectRefused(
        await me.post(`/payment-methods/${main.id}/main-request`, {}),
        'pending_request_limit',
      );
    expect(await writes()).toEqual(before);
    // The same request again is not a new one: it answers the pending one, cap or not.
    const again = await me.post(
      `/payment-methods/${unverified[0]?.id ?? ''}/verification-request`,
      {},
    );
    expect(again.json()).toEqual({ request_id: ids[0], status: 'pending' });
  });

  it(`keeps at most ${customerLimits.pendingCardAttempts} card additions waiting for the gateway`, async () => {
    for (let i = 0; i < customerLimits.pendingCardAttempts; i++) {
      const res = await other.post('/payment-methods/card', { alias: `Tarjeta ${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await writes();
    expectRefused(await other.post('/payment-methods/card', {}), 'card_attempt_limit');
    expect(await writes()).toEqual(before);
  });

  it('counts card additions in progress against the methods cap', async () => {
    // `other` keeps few methods and has the card additions of the test before pending.
    const have = (await methods(other)).length + customerLimits.pendingCardAttempts;
    for (let i = have; i < customerLimits.paymentMethods; i++)
      expect((await addAccount(other)).statusCode).toBe(201);
    expectRefused(await addAccount(other), 'payment_method_limit');
  });
});
