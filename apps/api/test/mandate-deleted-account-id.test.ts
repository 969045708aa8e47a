import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBankAccount } from './bank-account.ts';
import { engines } from './engines.ts';
import { openSignedInApp, type signedIn } from './session.ts';

/*
 * Session 37 review (SEPA mandates and bank accounts), fixed since: a mandate keeps pointing at its deleted bank account.
 *
 * What was wrong: the contract (packages/contract/src/sepa-mandates.ts, ZSepaMandate) says
 * `payment_method_id` is "the bank account it was signed for (null once that account is deleted)".
 * Deleting a bank account only soft-deletes it (payment_methods.deleted_at) and revokes its
 * mandate; `GET /sepa-mandates` (mandates/service.ts `toMandate`) still answers the deleted
 * account's id.
 * Why it matters: a client that follows the contract (the web app or a third party's) treats a
 * non-null id as a live account of the customer: it links the revoked mandate to an account that
 * is a 404 everywhere else (view, edit, delete, sign), and cannot tell a mandate whose account is
 * gone from one whose account is still saved.
 * Should: `payment_method_id: null` for a mandate whose account is deleted (join payment_methods
 * and answer the id only while `deleted_at IS NULL`), as the contract says.
 */
describe.each(engines())(
  'the account of a mandate whose account was deleted, on $name',
  (engine) => {
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ app, me, close } = await openSignedInApp(engine));
    });
    afterAll(async () => close());

    it('answers payment_method_id null once the account is deleted', async () => {
      const added = await addBankAccount(me);
      expect(added.statusCode, added.body).toBe(201);
      const accountId = added.json<{ method: { id: string } }>().method.id;
      type Listed = { id: string; status: string; payment_method_id: string | null };
      const mine = async () =>
        (await me.get('/sepa-mandates')).json<{ mandates: Listed[] }>().mandates;
      const mandate = (await mine()).find((m) => m.payment_method_id === accountId);
      expect(mandate?.status).toBe('active');

      const removed = await app.inject({
        method: 'DELETE',
        url: `/demo/api/1.0/payment-methods/${accountId}`,
        headers: { authorization: `Bearer ${me.token}` },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      // The account is gone for every other call...
      const methods = (await me.get('/payment-methods')).json<{ methods: { id: string }[] }>()
        .methods;
      expect(methods.map((m) => m.id)).not.toContain(accountId);

      // ...so its revoked mandate no longer names it.
      const after = (await mine()).find((m) => m.id === mandate?.id);
      expect(after?.status).toBe('revoked');
      expect(after?.payment_method_id).toBeNull();
    });
  },
);
