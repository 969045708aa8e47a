import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBankAccount } from './bank-account.ts';
import { engines } from './engines.ts';
import { holdLock, untilLockWaits } from './lock-waits.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * A bank account deleted while its verification request is being filed, PostgreSQL (two
 * connections).
 *
 * payment-methods/service.ts `remove` refuses (409 method_in_use) a method with a pending request,
 * reading `pending_request` in the same `find(…, lock = true)` SELECT ... FOR UPDATE that waits for
 * the method's row lock. `request` holds that lock while it files the request; the removal queued
 * behind it then runs the `pending_request` subquery with the snapshot taken BEFORE the wait, which
 * has no request yet: the account is deleted, and the request stays pending on a deleted method
 * (the provider's approval answers 409 "The payment method was deleted"), holding one of the
 * customer's `customerLimits.pendingRequests` places.
 * Should: the removal sees the request (lock first, read in a second statement): 409, or no
 * request is left pending on a deleted method.
 *
 * Deterministic: a third transaction holds the method's row; the request queues first, the removal
 * second (counted in pg_stat_activity), then the lock is released.
 */

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'a bank account deleted while a request about it is filed, on $name',
  (engine) => {
    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine);
    });
    afterAll(async () => fixture.close());

    it('does not delete an account whose verification request is being filed', async () => {
      const { db, app, me } = fixture;
      const added = await addBankAccount(me);
      expect(added.statusCode, added.body).toBe(201);
      const method = added.json<{ method: { id: string; status: string; is_main: boolean } }>()
        .method;
      expect(method).toMatchObject({ status: 'unverified', is_main: false });

      const release = await holdLock(
        db,
        'SELECT id FROM payment_methods WHERE id::text = $1 FOR UPDATE',
        [method.id],
      );
      const filed = me.post(`/payment-methods/${method.id}/verification-request`, {});
      await untilLockWaits(db, 1, 'the request to wait');
      const removed = app.inject({
        method: 'DELETE',
        url: `/demo/api/1.0/payment-methods/${method.id}`,
        headers: { authorization: `Bearer ${me.token}` },
      });
      await untilLockWaits(db, 2, 'the removal to wait');
      await release();
      const request = await filed;
      expect(request.statusCode, request.body).toBe(200);
      const removal = await removed;

      const [left] = await db.withOwner((sql) =>
        sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM payment_method_requests r
             JOIN payment_methods m ON m.tenant_id = r.tenant_id AND m.id = r.payment_method_id
            WHERE r.tenant_id = 'demo' AND r.status = 'pending' AND m.deleted_at IS NOT NULL`,
        ),
      );
      // Today: { removal: 200, pendingOnDeletedMethods: 1 }.
      expect({
        removal: removal.statusCode,
        pendingOnDeletedMethods: Number(left?.n ?? 0),
      }).toEqual({ removal: 409, pendingOnDeletedMethods: 0 });
    });
  },
);
