import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * Review 4 (money facts after the provider changes things), suspicion 4, PostgreSQL (two
 * connections at once): the statement reads its figures in four statements (documents/repository.ts
 * `statement`: the opening, the return fees, the invoices, the payments) in one READ COMMITTED
 * transaction (`db.withTenant`), so each statement sees what was committed before IT started. A
 * provider's batch committing between two of them is half in the statement: the nightly batch that
 * brings a new invoice already collected by direct debit, committed after the invoices were read
 * and before the payments were, gives a statement that credits the payment of an invoice it never
 * charged: its closing says the organisation owes the customer 30,25 €, which was true neither
 * before the batch (nothing) nor after it (invoice and payment, 0). An invoice cancelled, or
 * re-dated out of the period, in the same gap is charged and never credited, or counted twice.
 *
 * Made deterministic by a Database whose statement transaction stops before its payments query
 * until the batch has committed (no timing).
 */

/** `db` whose transactions stop before the first statement containing `marker`, once armed. */
function pausingBefore(db: Database, marker: string) {
  let armed = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const paused = new Promise<void>((resolve) => (reached = resolve));
  const pausing = (sql: Sql): Sql => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      if (armed && text.includes(marker)) {
        armed = false;
        reached();
        await gate;
      }
      return sql.query<Row>(text, params);
    },
    exec: (script) => sql.exec(script),
  });
  // Both ways a statement may read (its transaction, or its one snapshot since session 39).
  const wrapped: Database = {
    ...db,
    withTenant: (tenantId, fn) => db.withTenant(tenantId, (sql) => fn(pausing(sql))),
    snapshotOfTenant: (tenantId, fn) => db.snapshotOfTenant(tenantId, (sql) => fn(pausing(sql))),
  };
  return {
    wrapped,
    arm: () => (armed = true),
    paused,
    release,
  };
}

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'a statement read while a batch commits on $name',
  (engine) => {
    let fixture: ProviderFixture;
    // The statement's payments query (the last of its reads; four in session 39, five since the
    // returned debits' own movements).
    let pause: ReturnType<typeof pausingBefore>;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, {}, (db) => {
        pause = pausingBefore(db, 'AS credited_cents');
        return pause.wrapped;
      });
    });
    afterAll(async () => {
      pause.release();
      await fixture.close();
    });

    it('shows the statement as it was before the batch or after it, never half of it', async () => {
      const { app, me } = fixture;
      const id = 'REV4F-SNAPSHOT';
      const batch = () =>
        fixture.admin('PUT', '/invoices', {
          invoices: [
            {
              id,
              customer_code: me.user.code,
              // A month of its own, long before the demo data.
              invoice_date: '2012-03-10',
              base_cents: 2500,
              vat_cents: 525,
              total_cents: 3025,
              lines: [
                {
                  line_no: 1,
                  concept: 'Cuota',
                  quantity: 1,
                  unit_price_cents: 2500,
                  vat_rate: 21,
                },
              ],
              instalments: [
                {
                  seq: 1,
                  due_date: '2012-03-20',
                  amount_cents: 3025,
                  method: 'Domiciliación',
                  status: 'paid',
                  paid_date: '2012-03-20',
                },
              ],
            },
          ],
        });
      const march = () => statementCsv(app, me, '20120301', '20120331');

      const before = await march();
      // The customer downloads March's statement; it stops before reading the payments ...
      pause.arm();
      const reading = march();
      await pause.paused;
      // ... while the provider's nightly batch commits the invoice, collected by direct debit.
      const put = await batch();
      expect(put.statusCode, put.body).toBe(200);
      pause.release();
      const during = await reading;
      const after = await march();

      // Control: the batch charges and credits 30,25 € in March.
      expect(after.movements).toEqual([
        [id, 3025, 0],
        [id, 0, 3025],
      ]);
      // Session 39: { movements: [[id, 0, 3025]], closing: opening - 3025 }: a payment of an
      // invoice the statement never charged.
      expect([before, after]).toContainEqual(during);
    });
  },
);
