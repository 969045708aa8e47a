import { routes, type TRouteName } from '@portal/contract';
import { createNotification, decodeMerchantParameters, PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { urlOf, validRequests } from './contract-examples.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';

const range = { datefrom: '20000101', dateto: '20991231', page: '1' };
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Session = Awaited<ReturnType<typeof signedIn>> & { tenant: string };

/** What a customer owns, by id: what another customer (or tenant) must never reach. */
type Owned = {
  tenant: string;
  customerId: string;
  code: string;
  invoiceId: string;
  instalment: { id: string; amount: number };
  attemptId: string;
  methodId: string;
  cardId: string;
  notificationIds: string[];
};

/**
 * How each call of the contract is probed with another customer's ids:
 * - `ids`: requests of the signed-in customer naming the victim's ids: 404, the bare error body.
 * - `bulk`: calls that act on a list of ids and answer a count: they ignore foreign ids (count 0).
 * - `list`: calls without ids: what they list belongs to the caller only (checked in the database).
 * - `none`: calls with no customer data by id, and where their isolation is proved instead.
 */
type Case =
  | { kind: 'ids'; requests: (victim: Owned, me: Owned) => [Method, string, object?][] }
  | { kind: 'bulk'; requests: (victim: Owned) => [Method, string, object][] }
  | { kind: 'list'; request: [Method, string, object?]; owned: (body: unknown) => OwnedRefs }
  | { kind: 'none'; why: string };
type OwnedRefs = {
  table: 'invoices' | 'instalments' | 'payment_methods' | 'notifications';
  ids: string[];
};

const cases: Record<TRouteName, Case> = {
  visualConfig: {
    kind: 'none',
    why: 'public branding of the tenant in the path (Host test below)',
  },
  login: { kind: 'none', why: 'finds the e-mail in the tenant of the path only (auth.test.ts)' },
  refreshToken: { kind: 'none', why: "another tenant's refresh cookie is a 401 (auth.test.ts)" },
  logout: { kind: 'none', why: 'revokes only the family of the cookie it is given (auth.test.ts)' },
  forgotPassword: { kind: 'none', why: 'answers the same 202 for any address (auth.test.ts)' },
  resetPassword: { kind: 'none', why: "another tenant's link is invalid_token (auth.test.ts)" },
  secondFactorSignIn: {
    kind: 'none',
    why: "another tenant's challenge is refused; codes are the challenge's customer's (second-factor.test.ts)",
  },
  secondFactorEnrol: {
    kind: 'none',
    why: 'bound to a challenge of this tenant (second-factor.test.ts)',
  },
  secondFactor: {
    kind: 'none',
    why: "answers the token's own customer only (second-factor.test.ts)",
  },
  secondFactorSetup: { kind: 'none', why: "sets up the token's own customer only" },
  secondFactorConfirm: { kind: 'none', why: "confirms the token's own customer only" },
  secondFactorDisable: { kind: 'none', why: "needs a code of the token's own customer" },
  passkeySignInOptions: { kind: 'none', why: 'a challenge of this tenant, for nobody yet' },
  passkeySignIn: {
    kind: 'none',
    why: "another portal's passkey is unknown here and refused (passkeys.test.ts, e2e/passkeys.spec.ts)",
  },
  passkeys: { kind: 'none', why: "lists the token's own customer only (passkeys.test.ts)" },
  passkeyRegisterOptions: { kind: 'none', why: "for the token's own customer only" },
  passkeyRegister: { kind: 'none', why: "the challenge must be the token's own customer's" },
  renamePasskey: {
    kind: 'none',
    why: "another customer's passkey id is a 404 and keeps its name (passkeys.test.ts)",
  },
  deletePasskey: {
    kind: 'none',
    why: "another customer's passkey id is a 404 and stays (passkeys.test.ts)",
  },
  signInLink: { kind: 'none', why: 'answers the same 202 for any address (sign-in-link.test.ts)' },
  redeemSignInLink: {
    kind: 'none',
    why: "another tenant's link is invalid_token (sign-in-link.test.ts)",
  },
  changePassword: {
    kind: 'none',
    why: "changes only the token's own customer, and needs that customer's password (change-password.test.ts)",
  },
  signInCallback: {
    kind: 'none',
    why: 'bound to a signed state cookie of this tenant (oidc.test.ts)',
  },
  sessions: { kind: 'none', why: "lists the token's own customer only (sessions.test.ts)" },
  endSession: {
    kind: 'none',
    why: "another customer's session id is a 404 and stays open (sessions.test.ts)",
  },
  endOtherSessions: {
    kind: 'none',
    why: "ends the token's own customer's only (sessions.test.ts)",
  },
  endSessionByLink: {
    kind: 'none',
    why: "another tenant's link is invalid_token, the session stays open (sessions.test.ts)",
  },
  userProfile: {
    kind: 'ids',
    requests: (v) => [
      ['GET', `/user/profile/${v.customerId}`],
      ['GET', `/user/profile/${encodeURIComponent(v.code)}`],
    ],
  },
  updateContactData: {
    kind: 'none',
    why: "changes only the token's own customer (contact-data.test.ts)",
  },
  requestEmailChange: {
    kind: 'none',
    why: "changes only the token's own customer, and needs that customer's password (email-change.test.ts)",
  },
  confirmEmailChange: {
    kind: 'none',
    why: "another tenant's link is invalid_token, the e-mail stays (email-change.test.ts)",
  },
  invoices: {
    kind: 'list',
    request: ['POST', '/invoices', range],
    owned: (b) => ({
      table: 'invoices',
      ids: (b as { invoices: { invoice_id: string }[] }).invoices.map((i) => i.invoice_id),
    }),
  },
  invoiceSummary: { kind: 'none', why: 'answers counts of the caller only (invoices.test.ts)' },
  invoice: { kind: 'ids', requests: (v) => [['POST', '/invoice', { invoice_id: v.invoiceId }]] },
  relatedInvoices: {
    kind: 'ids',
    requests: (v) => [['POST', '/invoices/related', { invoice_id: v.invoiceId }]],
  },
  invoicePdf: {
    kind: 'ids',
    requests: (v) => [['POST', '/invoice/pdf', { invoice_id: v.invoiceId }]],
  },
  payments: {
    kind: 'list',
    request: ['POST', '/payments', range],
    owned: (b) => ({
      table: 'instalments',
      ids: (b as { payments: { payment_id: string }[] }).payments.map((p) => p.payment_id),
    }),
  },
  checkoutPreview: {
    kind: 'ids',
    requests: (v) => [
      ['POST', '/redsys/checkout-preview', { payment_ids: [v.instalment.id] }],
      ['POST', '/redsys/checkout-preview', { invoice_id: v.invoiceId }],
      ['POST', '/redsys/checkout-preview', { multiple_invoices: [v.invoiceId] }],
    ],
  },
  balance: {
    kind: 'list',
    request: ['GET', '/balance'],
    owned: (b) => ({
      table: 'instalments',
      ids: (b as { pay: { payment_ids: string[] } }).pay.payment_ids,
    }),
  },
  initPayment: {
    kind: 'ids',
    requests: (v, me) => [
      [
        'POST',
        '/redsys/init-payment',
        { amount: v.instalment.amount, payment_ids: [v.instalment.id] },
      ],
      [
        'POST',
        '/redsys/init-payment',
        { amount: v.instalment.amount, payment_id: v.instalment.id },
      ],
      ['POST', '/redsys/init-payment', { amount: v.instalment.amount, invoice_id: v.invoiceId }],
      [
        'POST',
        '/redsys/init-payment',
        { amount: v.instalment.amount, multiple_invoices: [v.invoiceId] },
      ],
      // My own instalment, paid with the victim's saved card.
      [
        'POST',
        '/redsys/init-payment',
        { amount: me.instalment.amount, payment_ids: [me.instalment.id], card_id: v.cardId },
      ],
    ],
  },
  paymentStatus: {
    kind: 'ids',
    requests: (v) => [['GET', `/redsys/payment/${v.attemptId}/status`]],
  },
  paymentMethods: {
    kind: 'list',
    request: ['GET', '/payment-methods'],
    owned: (b) => ({
      table: 'payment_methods',
      ids: (b as { methods: { id: string }[] }).methods.map((m) => m.id),
    }),
  },
  addBankAccount: { kind: 'none', why: 'creates a method of the caller (account.test.ts)' },
  addCard: { kind: 'none', why: 'starts a tokenisation of the caller (payments.test.ts)' },
  updatePaymentMethod: {
    kind: 'ids',
    requests: (v) => [
      ['PATCH', `/payment-methods/${v.methodId}`, { alias: 'stolen' }],
      ['PATCH', `/payment-methods/${v.cardId}`, { alias: 'stolen' }],
    ],
  },
  deletePaymentMethod: {
    kind: 'ids',
    requests: (v) => [
      ['DELETE', `/payment-methods/${v.methodId}`],
      ['DELETE', `/payment-methods/${v.cardId}`],
    ],
  },
  requestMainMethod: {
    kind: 'ids',
    requests: (v) => [['POST', `/payment-methods/${v.methodId}/main-request`, {}]],
  },
  requestVerification: {
    kind: 'ids',
    requests: (v) => [['POST', `/payment-methods/${v.methodId}/verification-request`, {}]],
  },
  signBankAccountMandate: {
    kind: 'ids',
    requests: (v) => [
      ['POST', `/payment-methods/${v.methodId}/sepa-mandate`, { mandate_accepted: true }],
    ],
  },
  bankTransferInfo: { kind: 'none', why: "answers the caller's own reference (account.test.ts)" },
  notifications: {
    kind: 'list',
    request: ['POST', '/notifications', {}],
    owned: (b) => ({
      table: 'notifications',
      ids: (b as { notifications: { id: string }[] }).notifications.map((n) => n.id),
    }),
  },
  unreadNotifications: { kind: 'none', why: 'a count of the caller only (account.test.ts)' },
  readNotifications: {
    kind: 'bulk',
    requests: (v) => [['POST', '/notifications/read', { ids: v.notificationIds }]],
  },
  deleteNotifications: {
    kind: 'bulk',
    requests: (v) => [['POST', '/notifications/delete', { ids: v.notificationIds }]],
  },
  contact: { kind: 'none', why: "writes the caller's own message (account.test.ts)" },
  fiscalDataRequests: {
    kind: 'none',
    why: "answers the token's own customer's requests only (fiscal-data.test.ts)",
  },
  requestFiscalDataChange: {
    kind: 'none',
    why: "asks for the token's own customer only (fiscal-data.test.ts)",
  },
  withdrawFiscalDataRequest: {
    kind: 'none',
    why: "another customer's or tenant's request id is a 404 and stays pending (fiscal-data.test.ts)",
  },
  dismissFiscalDataDecision: {
    kind: 'none',
    why: "another customer's or tenant's request id is a 404 (fiscal-data.test.ts)",
  },
  invoiceThreads: {
    kind: 'none',
    why: "lists the token's own customer's conversations only (invoice-threads.test.ts)",
  },
  openInvoiceThread: {
    kind: 'ids',
    requests: (v) => [['POST', '/invoice-threads', { invoice_id: v.invoiceId, message: 'Hola' }]],
  },
  unreadInvoiceThreads: {
    kind: 'none',
    why: "a count of the caller's own conversations only (invoice-threads.test.ts)",
  },
  invoiceThread: {
    kind: 'none',
    why: "another customer's or tenant's conversation is a 404 (invoice-threads.test.ts)",
  },
  replyInvoiceThread: {
    kind: 'none',
    why: "another customer's or tenant's conversation is a 404, nothing written (invoice-threads.test.ts)",
  },
  receipts: {
    kind: 'none',
    why: "lists the caller's own paid card payments; another's never appears (documents.test.ts)",
  },
  receiptLink: {
    kind: 'ids',
    requests: (v) => [['POST', '/documents/receipt', { payment_id: v.attemptId }]],
  },
  statementLink: {
    kind: 'none',
    why: "a statement of the caller's own invoices and payments only (documents.test.ts)",
  },
  invoicesZipLink: {
    kind: 'ids',
    requests: (v, me) => [
      ['POST', '/documents/invoices-zip', { invoice_ids: [v.invoiceId] }],
      ['POST', '/documents/invoices-zip', { invoice_ids: [me.invoiceId, v.invoiceId] }],
    ],
  },
  autoPay: {
    kind: 'list',
    request: ['GET', '/user/auto-pay'],
    owned: (b) => ({
      table: 'payment_methods',
      ids: (b as { cards: { id: string }[] }).cards.map((c) => c.id),
    }),
  },
  setAutoPay: {
    kind: 'none',
    why: "another customer's or tenant's card is a 404 and nothing changes (auto-pay.test.ts)",
  },
  sepaMandates: {
    kind: 'none',
    why: "lists only the token's own customer's mandates (sepa-mandates.test.ts)",
  },
  sepaMandatePdf: {
    kind: 'none',
    why: "another customer's or tenant's mandate is a 404 (sepa-mandates.test.ts)",
  },
};

describe.each(engines())('isolation of customers and tenants on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Session;
  let mine: Owned;
  const victims: { label: string; owned: Owned; session: Session }[] = [];

  const call = (who: Session, method: Method, path: string, payload?: object) =>
    app.inject({
      method,
      url: `/${who.tenant}/api/1.0${path}`,
      headers: { authorization: `Bearer ${who.token}` },
      ...(payload ? { payload } : {}),
    });

  /** Signs a customer in and makes sure they own one of everything an id can name. */
  async function customer(tenant: string, email: string): Promise<{ s: Session; owned: Owned }> {
    const s = { ...(await signedIn(app, tenant, email)), tenant };
    const invoices = (await call(s, 'POST', '/invoices', range)).json<{
      invoices: { invoice_id: string }[];
    }>().invoices;
    const unpaid = async () =>
      (await call(s, 'POST', '/payments', { ...range, pending: true, overdue: true })).json<{
        payments: { payment_id: string; amount: number }[];
      }>().payments;
    const methods = async () =>
      (await call(s, 'GET', '/payment-methods')).json<{ methods: { id: string; kind: string }[] }>()
        .methods;
    const notify = (params: Record<string, string>, response: string, extra = {}) =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/redsys/notification`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(
          createNotification({
            version: 'HMAC_SHA256_V1',
            secret: PUBLIC_TEST_MERCHANT.secretKey,
            params: {
              Ds_Amount: params.Ds_Merchant_Amount ?? '',
              Ds_Currency: '978',
              Ds_Order: params.Ds_Merchant_Order ?? '',
              Ds_MerchantCode: params.Ds_Merchant_MerchantCode ?? '',
              Ds_Terminal: '001',
              Ds_Response: response,
              Ds_TransactionType: params.Ds_Merchant_TransactionType ?? '0',
              ...extra,
            },
          }) as unknown as Record<string, string>,
        ).toString(),
      });
    const paramsOf = (res: LightMyRequestResponse) =>
      decodeMerchantParameters(
        res.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
          .Ds_MerchantParameters,
      );

    // A saved card (a tokenisation the gateway authorised) and a bank account, if missing.
    if (!(await methods()).some((m) => m.kind === 'card')) {
      const p = paramsOf(await call(s, 'POST', '/payment-methods/card', {}));
      await notify(p, '0000', {
        Ds_Merchant_Identifier: `${tenant}${email}`.padEnd(40, 'x').slice(0, 40),
        Ds_Card_Number: '454881******0004',
        Ds_ExpiryDate: '3012',
      });
    }
    if (!(await methods()).some((m) => m.kind !== 'card')) {
      await call(s, 'POST', '/payment-methods/bank-account', {
        iban: 'ES91 2100 0418 4502 0005 1332',
        holder: 'Titular',
        nif: '12345678Z',
        mandate_accepted: true,
      });
    }
    // A notification (a declined payment leaves one) and a pending payment attempt.
    const [first, second] = await unpaid();
    if (!first || !second) throw new Error(`${email} on ${tenant} has too few unpaid instalments`);
    const declined = await call(s, 'POST', '/redsys/init-payment', {
      amount: first.amount,
      payment_ids: [first.payment_id],
    });
    await notify(paramsOf(declined), '0190');
    const pending = await call(s, 'POST', '/redsys/init-payment', {
      amount: second.amount,
      payment_ids: [second.payment_id],
    });
    const notes = (await call(s, 'POST', '/notifications', {})).json<{
      notifications: { id: string }[];
    }>().notifications;
    const all = await methods();
    // Invoice numbers repeat across tenants (each numbers its own): another tenant's invoice is
    // one whose number does not exist here at all.
    let invoiceId = invoices[0]?.invoice_id ?? '';
    if (tenant !== 'demo') invoiceId = await invoiceOnlyIn(tenant, invoiceId);
    return {
      s,
      owned: {
        tenant,
        customerId: s.user.id,
        code: s.user.code,
        invoiceId,
        instalment: { id: first.payment_id, amount: first.amount },
        attemptId: pending.json<{ payment_id: string }>().payment_id,
        methodId: all.find((m) => m.kind !== 'card')?.id ?? '',
        cardId: all.find((m) => m.kind === 'card')?.id ?? '',
        notificationIds: notes.map((n) => n.id),
      },
    };
  }

  /** A copy of an invoice (and its instalments, unpaid) under a number only `tenant` has. */
  const invoiceOnlyIn = (tenant: string, source: string) =>
    db.withOwner(async (sql) => {
      const id = `${tenant.toUpperCase()}-ONLY-${source}`;
      await sql.query(
        'CREATE TEMP TABLE copy_invoice ON COMMIT DROP AS SELECT * FROM invoices WHERE tenant_id = $1 AND id = $2',
        [tenant, source],
      );
      await sql.query('UPDATE copy_invoice SET id = $1', [id]);
      await sql.query('INSERT INTO invoices SELECT * FROM copy_invoice');
      await sql.query(
        'CREATE TEMP TABLE copy_instalments ON COMMIT DROP AS SELECT * FROM instalments WHERE tenant_id = $1 AND invoice_id = $2',
        [tenant, source],
      );
      await sql.query(
        "UPDATE copy_instalments SET id = gen_random_uuid(), invoice_id = $1, status = 'pending', paid_date = NULL",
        [id],
      );
      await sql.query('INSERT INTO instalments SELECT * FROM copy_instalments');
      const [row] = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM invoices WHERE id = $1 AND tenant_id <> $2',
        [id, tenant],
      );
      expect(row?.n).toBe(0);
      return id;
    });

  /** What a victim owns as the database holds it: it must not change under the attacks. */
  const snapshot = (v: Owned) =>
    db.withOwner(async (sql) => ({
      methods: await sql.query(
        'SELECT id, alias, deleted_at, is_main FROM payment_methods WHERE tenant_id = $1 AND customer_id = $2 ORDER BY id',
        [v.tenant, v.customerId],
      ),
      requests: await sql.query(
        'SELECT count(*)::int AS n FROM payment_method_requests WHERE tenant_id = $1 AND customer_id = $2',
        [v.tenant, v.customerId],
      ),
      notes: await sql.query(
        'SELECT id, read_at FROM notifications WHERE tenant_id = $1 AND customer_id = $2 ORDER BY id',
        [v.tenant, v.customerId],
      ),
      attempts: await sql.query(
        'SELECT id, status FROM payment_attempts WHERE tenant_id = $1 ORDER BY id',
        [v.tenant],
      ),
    }));

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    const self = await customer('demo', demoEmail);
    me = self.s;
    mine = self.owned;
    const other = await customer('demo', secondEmail);
    const foreign = await customer('1', demoEmail);
    victims.push(
      { label: 'another customer of the tenant', owned: other.owned, session: other.s },
      { label: 'a customer of another tenant', owned: foreign.owned, session: foreign.s },
    );
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  it('has a case for every call of the contract', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(routes).sort());
  });

  const byKind = (kind: Case['kind']) =>
    (Object.entries(cases) as [TRouteName, Case][]).filter(([, c]) => c.kind === kind);

  it.each(byKind('ids').map(([name]) => [name]))(
    "%s answers 404 and no data for another customer's and another tenant's ids",
    async (name) => {
      const c = cases[name];
      if (c.kind !== 'ids') throw new Error('not an ids case');
      for (const victim of victims) {
        const before = await snapshot(victim.owned);
        for (const [method, path, payload] of c.requests(victim.owned, mine)) {
          const res = await call(me, method, path, payload);
          const what = `${victim.label}: ${method} ${path} ${JSON.stringify(payload ?? '')}`;
          expect(res.statusCode, `${what} -> ${res.body}`).toBe(404);
          expect(Object.keys(res.json()).sort(), what).toEqual(['code', 'message']);
          expect(res.body).not.toContain(victim.owned.customerId);
        }
        expect(await snapshot(victim.owned), `${victim.label}'s data changed`).toEqual(before);
      }
    },
  );

  it.each(byKind('bulk').map(([name]) => [name]))(
    "%s ignores another customer's and another tenant's ids: count 0, nothing changed",
    async (name) => {
      const c = cases[name];
      if (c.kind !== 'bulk') throw new Error('not a bulk case');
      for (const victim of victims) {
        expect(victim.owned.notificationIds.length).toBeGreaterThan(0);
        const before = await snapshot(victim.owned);
        for (const [method, path, payload] of c.requests(victim.owned)) {
          const res = await call(me, method, path, payload);
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toEqual({ count: 0 });
        }
        expect(await snapshot(victim.owned)).toEqual(before);
      }
    },
  );

  it.each(byKind('list').map(([name]) => [name]))(
    '%s lists only what belongs to the caller',
    async (name) => {
      const c = cases[name];
      if (c.kind !== 'list') throw new Error('not a list case');
      const [method, path, payload] = c.request;
      const res = await call(me, method, path, payload);
      expect(res.statusCode).toBe(200);
      const { table, ids } = c.owned(res.json());
      expect(ids.length).toBeGreaterThan(0);
      const idColumn = table === 'invoices' ? 'id' : 'id::text';
      const [row] = await db.withOwner((sql) =>
        sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table}
            WHERE tenant_id = 'demo' AND customer_id = $1 AND ${idColumn} = ANY($2::text[])`,
          [mine.customerId, ids],
        ),
      );
      expect(row?.n).toBe(new Set(ids).size);
      for (const victim of victims) expect(res.body).not.toContain(victim.owned.customerId);
    },
  );

  it("answers 401 to every bearer call made with another tenant's token", async () => {
    const bearer = (Object.keys(routes) as TRouteName[]).filter((n) => routes[n].auth === 'bearer');
    expect(bearer.length).toBeGreaterThan(15);
    const foreign = victims[1]?.session as Session;
    for (const [token, tenant] of [
      [me.token, '1'],
      [foreign.token, 'demo'],
    ] as const) {
      for (const name of bearer) {
        const { body } = validRequests[name];
        const res = await app.inject({
          method: routes[name].method,
          url: urlOf(tenant, name),
          headers: { authorization: `Bearer ${token}` },
          ...(body ? { payload: body } : {}),
        });
        expect(res.statusCode, `${name} on ${tenant}: ${res.body}`).toBe(401);
        expect(res.json()).toEqual({ message: 'Not signed in', code: 'unauthorized' });
      }
    }
  });

  it('answers 401 before validating anything: no token and a bad body learn no field rules', async () => {
    const bearer = (Object.keys(routes) as TRouteName[]).filter((n) => routes[n].auth === 'bearer');
    for (const name of bearer) {
      const res = await app.inject({
        method: routes[name].method,
        url: urlOf('1', name),
        ...(routes[name].method === 'GET' ? {} : { payload: { unexpected: ['x'], page: -1 } }),
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Not signed in', code: 'unauthorized' });
    }
  });

  describe('a foreign Host or X-Forwarded-Host, even behind a trusted proxy', () => {
    let proxied: FastifyInstance;
    let token: string;
    beforeAll(async () => {
      proxied = await buildTestApp(db, {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'http://localhost:3000',
        TRUST_PROXY: 'true',
      });
      token = (await signedIn(proxied, 'demo')).token;
    });
    afterAll(async () => {
      await proxied.close();
    });
    const spoofed = {
      host: 'localhost:3000',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.9',
    };

    it('changes neither the tenant of a call nor the tenant of a token', async () => {
      const branding = await proxied.inject({
        method: 'GET',
        url: '/demo/api/1.0/visual-config',
        headers: spoofed,
      });
      expect(branding.json()).toMatchObject({ company_name: 'Gimnasio Demo Fitness' });
      const login = await proxied.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        headers: { ...spoofed, host: '1.localhost:3000' },
        payload: { email: demoEmail, password: 'Demo1234!' },
      });
      expect(login.statusCode).toBe(200);
      const fresh = login.json<{ access_token: string }>().access_token;
      const on = (tenant: string) =>
        proxied.inject({
          method: 'GET',
          url: `/${tenant}/api/1.0/payment-methods`,
          headers: { ...spoofed, authorization: `Bearer ${fresh}` },
        });
      expect((await on('demo')).statusCode).toBe(200);
      expect((await on('1')).statusCode).toBe(401);
    });

    it('changes no link: e-mails and the payment return addresses use the canonical URL', async () => {
      await proxied.inject({
        method: 'POST',
        url: '/demo/api/1.0/forgot-password',
        headers: spoofed,
        payload: { email: demoEmail },
      });
      const mail = await smtp.waitFor(demoEmail);
      expect(mail.raw).not.toContain('evil.example');
      expect(mail.raw).toContain('http://demo.localhost:3000/reset-password?token=');

      const init = await proxied.inject({
        method: 'POST',
        url: '/demo/api/1.0/payment-methods/card',
        headers: { ...spoofed, authorization: `Bearer ${token}` },
        payload: {},
      });
      const p = decodeMerchantParameters(
        init.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
          .Ds_MerchantParameters,
      );
      for (const url of [p.Ds_Merchant_UrlOK, p.Ds_Merchant_UrlKO, p.Ds_Merchant_MerchantURL])
        expect(url).toMatch(/^http:\/\/(demo\.)?localhost:3000\//);
    });
  });
});
