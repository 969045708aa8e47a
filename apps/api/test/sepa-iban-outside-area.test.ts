import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { addBankAccount } from './bank-account.ts';
import { engines } from './engines.ts';
import { openSignedInApp, type signedIn } from './session.ts';

/*
 * Session 37 review (SEPA mandates and bank accounts), fixed since: a SEPA Core mandate is signed for an account outside SEPA.
 *
 * What was wrong: `POST /payment-methods/bank-account` checks the IBAN only with ibantools'
 * `isValidIBAN` (packages/contract/src/account.ts, ZAddBankAccountRequest.iban), which accepts the
 * IBAN of any country of the IBAN registry. A Brazilian, Saudi or Turkish IBAN with right check
 * digits is saved "for direct debit" and, where the tenant has a creditor identifier, a SEPA Core
 * mandate is signed for it (active, `mandate.signed` sent to the provider, replacing the customer's
 * valid mandate on their Spanish account).
 * Why it matters: SEPA direct debits can only be collected from accounts in the SEPA area. The
 * provider is told it holds a valid mandate and collects with it; the bank refuses the debit (or
 * it is returned, with the fee charged to the organisation), the customer's instalment is left
 * unpaid, and the customer's previous, working mandate was marked replaced by a useless one.
 * Should: refuse an IBAN of a country outside SEPA with 422 on the `iban` field (e.g. with
 * ibantools' `isSEPACountry`), writing neither the account nor a mandate.
 */
const nonSepaIbans = [
  'BR1800360305000010009795493C1', // Brazil
  'SA0380000000608010167519', // Saudi Arabia
  'TR330006100519786457841326', // Turkey
];

describe.each(engines())('a bank account outside SEPA, on $name', (engine) => {
  let db: Database;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, me, close } = await openSignedInApp(engine));
  });
  afterAll(async () => close());

  const counts = () =>
    db.withTenant('demo', async (sql) => {
      const [row] = await sql.query<{ methods: number; mandates: number }>(
        `SELECT (SELECT count(*)::int FROM payment_methods WHERE customer_id = $1) AS methods,
                (SELECT count(*)::int FROM sepa_mandates WHERE customer_id = $1) AS mandates`,
        [me.user.id],
      );
      return row;
    });

  const add = (iban: string) => addBankAccount(me, { iban, entity: 'Banco de fuera' });

  it('still signs for an account in another SEPA country (control)', async () => {
    const res = await add('DE89 3704 0044 0532 0130 00');
    expect(res.statusCode, res.body).toBe(201);
  });

  it.each(nonSepaIbans)(
    'refuses %s for direct debit with a 422 on iban, and signs no mandate',
    async (iban) => {
      const before = await counts();
      const res = await add(iban);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors?.iban, res.body).toEqual([expect.any(String)]);
      expect(await counts()).toEqual(before);
    },
  );
});
