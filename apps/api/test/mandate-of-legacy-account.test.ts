import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openSignedInApp, type SignedInApp } from './session.ts';

/*
 * A SEPA mandate signed for a bank account saved before session 37's checks.
 *
 * Session 37 refused, when ADDING or EDITING a bank account, an IBAN outside the SEPA area
 * (sepa-iban-outside-area.test.ts) and a holder with a line break (mandate-holder-one-line.test.ts),
 * but no migration touched the accounts saved before, and decision 034 lets the customer sign a
 * mandate for an account already saved (`POST /payment-methods/{id}/sepa-mandate`, offered as
 * "Firmar mandato SEPA" on every account without one). payment-methods/service.ts `signMandate`
 * signs with the stored `iban` and `holder` as they are: a Brazilian account gets an active SEPA
 * Core mandate (replacing the customer's working one, `mandate.signed` sent to the provider), and a
 * holder of several lines becomes the debtor's name drawn with forged NIF/IBAN lines in the PDF.
 * Should: the same checks as adding the account (422 `iban_not_sepa` / `invalid_characters`, or a
 * 409), no mandate written.
 *
 * The accounts "saved before" are written with SQL, as the old code stored them.
 */
const legacy = [
  {
    what: 'an IBAN outside the SEPA area',
    iban: 'BR1800360305000010009795493C1',
    holder: 'Laura García Martín',
  },
  {
    what: 'a holder of several lines',
    iban: 'ES7921000813610123456789',
    holder: 'Laura García\nNIF\n99999999R\nNÚMERO DE CUENTA (IBAN)\nES00 0000 0000 0000 0000 0000',
  },
];

describe.each(engines())(
  'signing the mandate of an account saved before the checks, on $name',
  (engine) => {
    let fixture: SignedInApp;
    beforeAll(async () => {
      fixture = await openSignedInApp(engine);
    });
    afterAll(async () => fixture.close());

    const mandates = async () =>
      await fixture.db.withOwner((sql) =>
        sql.query<{ payment_method_id: string; status: string; debtor_name: string; iban: string }>(
          `SELECT payment_method_id::text, status, debtor_name, iban FROM sepa_mandates
            WHERE tenant_id = 'demo' AND customer_id::text = $1`,
          [fixture.me.user.id],
        ),
      );

    it.each(legacy)('does not sign a mandate for $what', async ({ iban, holder }) => {
      const { db, app, me } = fixture;
      const [row] = await db.withOwner((sql) =>
        sql.query<{ id: string }>(
          `INSERT INTO payment_methods (tenant_id, customer_id, kind, alias, holder, iban, nif, entity, status)
         VALUES ('demo', $1, 'bank_account', 'Cuenta antigua', $2, $3, '12345678Z', '', 'active')
         RETURNING id::text`,
          [me.user.id, holder, iban],
        ),
      );
      const id = row?.id ?? '';
      const res = await app.inject({
        method: 'POST',
        url: `/demo/api/1.0/payment-methods/${id}/sepa-mandate`,
        headers: { authorization: `Bearer ${me.token}` },
        payload: { mandate_accepted: true, mandate_language: 'es' },
      });
      const signed = (await mandates()).filter((m) => m.payment_method_id === id);
      // Today: 200 and an active mandate with this IBAN / this debtor name.
      expect({ refused: res.statusCode === 409 || res.statusCode === 422, signed }).toEqual({
        refused: true,
        signed: [],
      });
    });
  },
);
