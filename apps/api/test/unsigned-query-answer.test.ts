import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_TEST_MERCHANT, signQueryVersion } from '@portal/redsys';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startCheckout } from './checkout.ts';
import { down, testReconciler } from './lost-notifications.ts';

/*
 * Session 34's money review: the reconciliation's SOAP query answer (consultaOperaciones) is
 * trusted only when Redsys' signature verifies. Redsys signs its answers (redsys-notes §1.2:
 * "The response carries its own <Signature>", S1 §3.2.2 / Anexo 1); a wrong signature is refused
 * (reconcile.test.ts "never acts on a forged answer"). Here the answer carries NO usable signature:
 * whoever answers on that connection (a proxy, a hijacked DNS name, a TLS-intercepting box) must
 * not be able to make the portal record money that never arrived.
 */

/** An operation as Redsys' query answers it (S1 §3.2.2), for the demo merchant. */
function operationXml(op: { order: string; amount: number; response: string }) {
  return (
    `<Response Ds_Version="0.0"><Ds_MerchantCode>999008881</Ds_MerchantCode>` +
    `<Ds_Terminal>1</Ds_Terminal><Ds_Order>${op.order}</Ds_Order><Ds_TransactionType>0</Ds_TransactionType>` +
    `<Ds_Date>2026-11-21</Ds_Date><Ds_Hour>10:00:00</Ds_Hour><Ds_Amount>${op.amount}</Ds_Amount>` +
    `<Ds_Currency>978</Ds_Currency><Ds_CardNumber>454881******0004</Ds_CardNumber><Ds_CardType>C</Ds_CardType>` +
    `<Ds_SecurePayment>1</Ds_SecurePayment><Ds_State>F</Ds_State><Ds_Response>${op.response}</Ds_Response>` +
    `<Ds_AuthorisationCode>123456</Ds_AuthorisationCode><Ds_CardCountry>724</Ds_CardCountry></Response>`
  );
}

/** The SOAP envelope around a `<Messages>` document, escaped as Redsys sends it. */
function soap(messages: string) {
  const escaped = messages
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
  return (
    '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">' +
    '<soapenv:Body><p259:consultaOperacionesResponse xmlns:p259="http://webservices.apl02.redsys.es">' +
    `<consultaOperacionesReturn>${escaped}</consultaOperacionesReturn>` +
    '</p259:consultaOperacionesResponse></soapenv:Body></soapenv:Envelope>'
  );
}

/** Ways to send an operation without a signature that can be checked. */
const unsigned = {
  'no <Signature> element': (version: string) => `<Messages>${version}</Messages>`,
  'a <Signature> holding an element instead of text': (version: string) =>
    `<Messages>${version}<Signature><x>forged</x></Signature></Messages>`,
} as const;

describe.each(engines())('unsigned query answers on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let host: Server;
  let hostUrl: string;
  let hostAnswer: (order: string) => string = () => '';

  beforeAll(async () => {
    db = await engine.open();
    host = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const order = /<Ds_Order>([0-9A-Za-z]+)<\/Ds_Order>/.exec(body)?.[1] ?? '';
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(hostAnswer(order));
      });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
    app = await buildTestApp(db, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
    me = await signedIn(app, 'demo');
    // The tenant uses Redsys' test host, which the stand-in server plays.
    await db.withOwner((sql) =>
      sql.query("UPDATE tenants SET redsys_environment = 'test' WHERE id = 'demo'"),
    );
  });
  afterAll(async () => {
    await app.close();
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
    await db.close();
  });
  /** The instalments the tests started paying, as they were before. */
  const touched: { id: string; status: string }[] = [];
  /** Each test leaves nothing open, and its instalment as it was, for the next. */
  afterEach(async () => {
    await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE payment_attempts SET status = 'failed', settled_at = now()
          WHERE tenant_id = 'demo' AND settled_at IS NULL`,
      );
      await sql.query(
        `UPDATE payment_attempt_items SET active = false WHERE tenant_id = 'demo' AND active`,
      );
      for (const { id, status } of touched.splice(0)) {
        await sql.query('UPDATE instalments SET status = $2, paid_date = NULL WHERE id = $1', [
          id,
          status,
        ]);
      }
    });
  });

  const reconcile = () =>
    testReconciler({
      db,
      gatewayUrl: down,
      hosts: { test: hostUrl, production: hostUrl },
      timeoutMs: 5_000,
      releaseAfterMinutes: 60,
    }).reconcileTenant('demo');

  /** The customer starts paying their first unpaid instalment, then never comes back. */
  async function startAndAbandon() {
    const { id, item, p: params } = await startCheckout(me);
    const [before] = await db.withOwner((sql) =>
      sql.query<{ status: string }>('SELECT status FROM instalments WHERE id = $1', [
        item.payment_id,
      ]),
    );
    touched.push({ id: item.payment_id, status: before?.status ?? 'pending' });
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = now() - interval '2 minutes' WHERE id = $1",
        [id],
      ),
    );
    return {
      id,
      instalmentId: item.payment_id,
      order: params.Ds_Merchant_Order ?? '',
      amount: Number(params.Ds_Merchant_Amount),
    };
  }
  const stateOf = async (attemptId: string, instalmentId: string) =>
    db.withOwner(async (sql) => {
      const [a] = await sql.query<{ status: string }>(
        'SELECT status FROM payment_attempts WHERE id = $1',
        [attemptId],
      );
      const [e] = await sql.query<{ status: string }>(
        'SELECT status FROM instalments WHERE id = $1',
        [instalmentId],
      );
      return { attempt: a?.status, instalment: e?.status };
    });

  it.each([
    ['signed with the merchant key', 'paid', PUBLIC_TEST_MERCHANT.secretKey],
    ['signed with another key', 'unanswered', 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev'],
  ])('control: an "authorised" answer %s is %s', async (_name, outcome, key) => {
    const open = await startAndAbandon();
    hostAnswer = (order) => {
      const version = `<Version Ds_Version="0.0"><Message>${operationXml({ order, amount: open.amount, response: '0000' })}</Message></Version>`;
      return soap(
        `<Messages>${version}<Signature>${signQueryVersion(key, order, version)}</Signature></Messages>`,
      );
    };
    const results = await reconcile();
    expect(results.find((r) => r.attemptId === open.id)?.outcome).toBe(outcome);
  });

  it.each(Object.entries(unsigned))(
    'an "authorised" answer with %s records no payment',
    async (_name, wrap) => {
      const open = await startAndAbandon();
      const before = touched.at(-1)?.status;
      // Nobody paid. The answer on the wire says the order was authorised, unsigned.
      hostAnswer = (order) =>
        soap(
          wrap(
            `<Version Ds_Version="0.0"><Message>${operationXml({ order, amount: open.amount, response: '0000' })}</Message></Version>`,
          ),
        );
      const results = await reconcile();
      expect({
        reconciled: results.find((r) => r.attemptId === open.id)?.outcome,
        ...(await stateOf(open.id, open.instalmentId)),
      }).toEqual({ reconciled: 'unanswered', attempt: 'pending', instalment: before });
    },
  );

  it('a "declined" answer without a signature fails nothing either', async () => {
    const open = await startAndAbandon();
    const before = touched.at(-1)?.status;
    hostAnswer = (order) =>
      soap(
        `<Messages><Version Ds_Version="0.0"><Message>${operationXml({ order, amount: open.amount, response: '0190' })}</Message></Version></Messages>`,
      );
    const results = await reconcile();
    expect({
      reconciled: results.find((r) => r.attemptId === open.id)?.outcome,
      ...(await stateOf(open.id, open.instalmentId)),
    }).toEqual({ reconciled: 'unanswered', attempt: 'pending', instalment: before });
  });
});
