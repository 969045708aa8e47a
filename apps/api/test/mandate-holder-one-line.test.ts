import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openSignedInApp, type signedIn } from './session.ts';

/*
 * Session 37 review (SEPA mandates and bank accounts), fixed since: the account holder, the mandate's debtor name, takes
 * line breaks.
 *
 * What was wrong: `holder` is `text(120)` in packages/contract/src/account.ts (ZAddBankAccountRequest
 * and ZUpdatePaymentMethodRequest), not the one-line `line(120)` that session 36 gave the contact
 * form's names. "Laura García\nNIF\n99999999R\nNÚMERO DE CUENTA (IBAN)\nES00 ..." is saved, signed
 * as the debtor's name, sent to the provider (webhook `mandate.signed`, GET /admin/mandates) and
 * drawn by the mandate PDF as extra lines inside the debtor box, under the label "Nombre del
 * deudor", where they read as the mandate's own NIF and IBAN fields (seen rendered).
 * Why it matters: the mandate PDF is the evidence of who authorised the debits; a name field must
 * not be able to write what looks like other fields of it. The provider also copies the debtor
 * name into its SEPA file (pain.008 `Dbtr/Nm`, one line), which a line break breaks.
 * Should: refuse a line break (LF, CR, U+2028, U+2029) in `holder`, when adding and when editing a
 * bank account: 422 `holder: invalid_characters`, nothing written (use `line(120)`).
 */
const forged =
  'Laura García\nNIF\n99999999R\nNÚMERO DE CUENTA (IBAN)\nES00 0000 0000 0000 0000 0000';

describe.each(engines())('a line break in a bank account holder, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, app, me, close } = await openSignedInApp(engine));
  });
  afterAll(async () => close());

  const mandateCount = async () => {
    const [row] = await db.withTenant('demo', (sql) =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sepa_mandates WHERE customer_id = $1`,
        [me.user.id],
      ),
    );
    return row?.n ?? 0;
  };
  const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0${url}`,
      headers: { authorization: `Bearer ${me.token}` },
      payload,
    });
  const account = (holder: string) => ({
    iban: 'ES91 2100 0418 4502 0005 1332',
    holder,
    nif: '12345678Z',
    mandate_accepted: true,
    mandate_language: 'es',
  });

  it('refuses it when adding the account: 422 holder invalid_characters, no mandate signed', async () => {
    const before = await mandateCount();
    const res = await call('POST', '/payment-methods/bank-account', account(forged));
    // Today: 201, and the mandate PDF shows the forged lines as the debtor's NIF and IBAN.
    if (res.statusCode === 201) {
      const mandate = (await me.get('/sepa-mandates')).json<{ mandates: { id: string }[] }>()
        .mandates[0];
      const link = await me.post(`/sepa-mandates/${mandate?.id}/pdf`, { language: 'es' });
      const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
      const text = await pdfText(new Uint8Array(pdf.rawPayload));
      console.info(
        `mandate PDF, debtor box:\n${text.slice(text.indexOf('Deudor'), text.indexOf('TIPO DE PAGO'))}`,
      );
    }
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({ holder: ['invalid_characters'] });
    expect(await mandateCount()).toBe(before);
    // Today the PDF above is drawn, and the first PDF starts the heavy-work process: not a timing check.
  }, 120_000);

  it('refuses it when editing the holder of a saved bank account', async () => {
    const added = await call('POST', '/payment-methods/bank-account', account('Laura García'));
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json<{ method: { id: string } }>().method.id;
    const res = await call('PATCH', `/payment-methods/${id}`, {
      holder: 'Laura García\r\nPedro Ruiz',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({ holder: ['invalid_characters'] });
    const methods = (await me.get('/payment-methods')).json<{
      methods: { id: string; holder: string }[];
    }>().methods;
    expect(methods.find((m) => m.id === id)?.holder).toBe('Laura García');
  });
});
