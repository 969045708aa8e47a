import { createCipheriv, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_TEST_MERCHANT, decodeMerchantParameters } from '@portal/redsys';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { payAtSimulator } from './checkout.ts';
import { buildTestApp, engines } from './engines.ts';
import { testReconciler } from './lost-notifications.ts';
import { signedIn } from './session.ts';

const range = { datefrom: '20000101', dateto: '20991231' };
// Redsys' public test key (merchant 999008881): public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';

/**
 * What Redsys' SOAP service answers for one operation, written out by hand from S1 (§3.2.2, §3.3.1)
 * and the shape maintained clients parse (escaped `<Messages>` inside consultaOperacionesReturn,
 * the p259 namespace), signed as S1 §3.4.1 says: independent of the package's own builder.
 */
function redsysAnswer(op: { order: string; amount: number; state: string; response?: string }) {
  const version =
    `<Version Ds_Version="0.0"><Message><Response Ds_Version="0.0"><Ds_MerchantCode>999008881</Ds_MerchantCode>` +
    `<Ds_Terminal>1</Ds_Terminal><Ds_Order>${op.order}</Ds_Order><Ds_TransactionType>0</Ds_TransactionType>` +
    `<Ds_Date>2026-11-21</Ds_Date><Ds_Hour>10:00:00</Ds_Hour><Ds_Amount>${op.amount}</Ds_Amount>` +
    `<Ds_Currency>978</Ds_Currency><Ds_CardNumber>454881******0004</Ds_CardNumber><Ds_CardType>C</Ds_CardType>` +
    `<Ds_SecurePayment>1</Ds_SecurePayment><Ds_State>${op.state}</Ds_State>` +
    (op.response ? `<Ds_Response>${op.response}</Ds_Response>` : '') +
    `<Ds_CardCountry>724</Ds_CardCountry></Response></Message></Version>`;
  return soap(
    `<Messages>${version}<Signature>${soapSignature(op.order, version)}</Signature></Messages>`,
  );
}

function soapSignature(order: string, version: string, secret: string = KEY) {
  const padded = Buffer.alloc(Math.ceil(order.length / 8) * 8);
  Buffer.from(order).copy(padded);
  const cipher = createCipheriv('des-ede3-cbc', Buffer.from(secret, 'base64'), Buffer.alloc(8));
  cipher.setAutoPadding(false);
  const key = Buffer.concat([cipher.update(padded), cipher.final()]);
  return createHmac('sha256', key).update(version).digest('base64');
}

function soap(messages: string) {
  const escaped = messages
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
  return (
    '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>' +
    '<p259:consultaOperacionesResponse xmlns:p259="http://webservices.apl02.redsys.es">' +
    `<consultaOperacionesReturn>${escaped}</consultaOperacionesReturn>` +
    '</p259:consultaOperacionesResponse></soapenv:Body></soapenv:Envelope>'
  );
}

/**
 * A payment whose notification never arrives (the merchant URL is unreachable) is settled by
 * asking the gateway's SOAP query service: the real local simulator, or a local server standing
 * in for a Redsys host, answer the same request at the same path.
 */
describe.each(engines())('reconciliation of stale payments on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const simRequests: { url: string; soapaction: unknown; body: string }[] = [];
  // The stand-in Redsys host: answers what `hostAnswer` says and records what it was sent.
  let host: Server;
  let hostUrl: string;
  let hostAnswer: (order: string) => string = () => '';
  const hostRequests: { url: string; soapaction: unknown; body: string }[] = [];

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({ notificationAttempts: 1, notificationTimeoutMs: 500 });
    sim.addHook('preHandler', async (request) => {
      simRequests.push({
        url: request.url,
        soapaction: request.headers.soapaction,
        body: typeof request.body === 'string' ? request.body : '',
      });
    });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
    host = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        hostRequests.push({ url: req.url ?? '', soapaction: req.headers.soapaction, body });
        const order = /<Ds_Order>([0-9A-Za-z]+)<\/Ds_Order>/.exec(body)?.[1] ?? '';
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(hostAnswer(order));
      });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
    // Port 9 (discard) refuses: the simulator's notification is lost, as when the API is down.
    app = await buildTestApp(db, {
      REDSYS_SIMULATOR_URL: simUrl,
      NOTIFICATION_URL: 'http://127.0.0.1:9',
    });
    me = await signedIn(app, 'demo');
  });
  afterAll(async () => {
    await app.close();
    await sim.close();
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
    await db.close();
  });

  // The attempts whose receipt e-mail was sent (the receipt mailer in production).
  const receipts: string[] = [];
  const reconciler = (releaseAfterMinutes = 60) =>
    testReconciler({
      db,
      gatewayUrl: simUrl,
      // Test and production tenants reach the stand-in host; simulator tenants the simulator.
      hosts: { test: hostUrl, production: hostUrl },
      timeoutMs: 5_000,
      releaseAfterMinutes,
      onPaid: async ({ attempt }) => {
        receipts.push(attempt.id);
      },
    });
  const age = (id: string, minutes = 2) =>
    db.withOwner((sql) =>
      sql.query(
        'UPDATE payment_attempts SET created_at = now() - make_interval(mins => $2) WHERE id = $1',
        [id, minutes],
      ),
    );
  const setEnvironment = (environment: 'simulator' | 'test' | 'production') =>
    db.withOwner((sql) =>
      sql.query("UPDATE tenants SET redsys_environment = $1 WHERE id = 'demo'", [environment]),
    );
  const statusOf = async (id: string) =>
    (await me.get(`/redsys/payment/${id}/status`)).json<{ status: string }>().status;
  const activeItems = async (id: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM payment_attempt_items WHERE attempt_id = $1 AND active',
          [id],
        ),
      )
    )[0]?.n;

  /** The instalments are free again: a new payment of them starts (then is dropped, for the next test). */
  async function canPayAgain(body: object) {
    const res = await me.post('/redsys/init-payment', body);
    expect(res.statusCode, res.body).toBe(200);
    const { payment_id: id } = res.json<{ payment_id: string }>();
    await db.withOwner(async (sql) => {
      await sql.query("UPDATE payment_attempts SET status = 'failed' WHERE id = $1", [id]);
      await sql.query('UPDATE payment_attempt_items SET active = false WHERE attempt_id = $1', [
        id,
      ]);
    });
  }

  /** Starts paying the first unpaid instalment; answers the attempt, its order and the form. */
  async function start() {
    const [first] = (
      await me.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{ payments: { payment_id: string; amount: number }[] }>().payments;
    const body = { amount: first?.amount, payment_ids: [first?.payment_id] };
    const res = await me.post('/redsys/init-payment', body);
    expect(res.statusCode, res.body).toBe(200);
    const { payment_id: id, redsys_params: form } = res.json<{
      payment_id: string;
      redsys_params: Record<string, string>;
    }>();
    const params = decodeMerchantParameters(form.Ds_MerchantParameters ?? '');
    return {
      id,
      form,
      body,
      order: params.Ds_Merchant_Order ?? '',
      amount: Number(params.Ds_Merchant_Amount),
    };
  }

  /** The browser posts the signed form to the simulator and, if a card is given, pays with it. */
  async function atGateway(form: Record<string, string>, card?: string) {
    const page = await sim.inject({
      method: 'POST',
      url: '/sis/realizarPago',
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(page.statusCode).toBe(200);
    if (!card) return;
    const action = /action="([^"]*tarjeta)"/.exec(page.body)?.[1] ?? '';
    const paid = await sim.inject({
      method: 'POST',
      url: new URL(action, simUrl).pathname,
      payload: new URLSearchParams({
        card_number: card,
        expiry: '12/30',
        cvc: '123',
        action: 'pay',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([200, 302, 303]).toContain(paid.statusCode);
  }

  it('pays an attempt the simulator authorised but never notified, over the SOAP query', async () => {
    const { id, form, order } = await start();
    await atGateway(form, '4548812049400004');
    expect(await statusOf(id)).toBe('pending');

    // Too young: left alone. Old enough: the gateway's answer settles it.
    expect(await reconciler().reconcileTenant('demo')).toEqual([]);
    await age(id);
    const asked = simRequests.length;
    expect(await reconciler().reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'paid' },
    ]);
    expect(await statusOf(id)).toBe('paid');
    // The customer gets the receipt, as a notification that paid would send (session 39: none).
    expect(receipts).toEqual([id]);
    // It asked Redsys' SOAP service, in Redsys' shape: the simulator answers nothing else.
    const queries = simRequests.slice(asked);
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatchObject({
      url: '/apl02/services/SerClsWSConsulta',
      soapaction: 'consultaOperaciones',
    });
    expect(queries[0]?.body).toContain(
      `<Transaction><Ds_MerchantCode>999008881</Ds_MerchantCode><Ds_Terminal>1</Ds_Terminal><Ds_Order>${order}</Ds_Order><Ds_TransactionType>0</Ds_TransactionType></Transaction>`,
    );
  });

  it('fails an attempt the simulator declined and frees its instalments', async () => {
    const { id, form, body } = await start();
    await atGateway(form, '5576440022788500');
    await age(id);
    expect(await reconciler().reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'failed' },
    ]);
    expect(await statusOf(id)).toBe('failed');
    expect(await activeItems(id)).toBe(0);
    await canPayAgain(body);
  });

  it('frees the instalments of an attempt the gateway never received (XML0024)', async () => {
    const { id, body } = await start();
    expect(await activeItems(id)).toBe(1);
    await age(id);
    expect(await reconciler().reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'released' },
    ]);
    expect(await statusOf(id)).toBe('failed');
    expect(await activeItems(id)).toBe(0);
    await canPayAgain(body);
  });

  it('leaves a card page that is still open pending, and releases it after the bound', async () => {
    const { id, form, body } = await start();
    await atGateway(form); // the customer is on the card page (Ds_State S)
    await age(id, 30);
    expect(await reconciler(60).reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'in_progress' },
    ]);
    expect(await statusOf(id)).toBe('pending');
    expect(await activeItems(id)).toBe(1);
    await age(id, 61);
    expect(await reconciler(60).reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'expired' },
    ]);
    expect(await statusOf(id)).toBe('failed');
    expect(await activeItems(id)).toBe(0);
    await canPayAgain(body);
  });

  it('reconciles tenants on the Redsys test and production hosts from real-shaped SOAP answers', async () => {
    await setEnvironment('test');
    try {
      const paid = await start();
      hostAnswer = (order) =>
        redsysAnswer({ order, amount: paid.amount, state: 'F', response: '0000' });
      await age(paid.id);
      expect(await reconciler().reconcileTenant('demo')).toEqual([
        { attemptId: paid.id, outcome: 'paid' },
      ]);
      expect(await statusOf(paid.id)).toBe('paid');
      expect(hostRequests.at(-1)).toMatchObject({
        url: '/apl02/services/SerClsWSConsulta',
        soapaction: 'consultaOperaciones',
      });
      expect(hostRequests.at(-1)?.body).toContain(`<Ds_Order>${paid.order}</Ds_Order>`);

      await setEnvironment('production');
      const open = await start();
      hostAnswer = (order) => redsysAnswer({ order, amount: open.amount, state: 'P' });
      await age(open.id);
      expect(await reconciler().reconcileTenant('demo')).toEqual([
        { attemptId: open.id, outcome: 'in_progress' },
      ]);
      hostAnswer = () =>
        soap(
          '<Messages><Version Ds_Version="0.0"><Message><ErrorMsg><Ds_ErrorCode>XML0024</Ds_ErrorCode></ErrorMsg></Message></Version></Messages>',
        );
      expect(await reconciler().reconcileTenant('demo')).toEqual([
        { attemptId: open.id, outcome: 'released' },
      ]);
      expect(await activeItems(open.id)).toBe(0);
    } finally {
      await setEnvironment('simulator');
    }
  });

  it('never acts on a forged answer: the attempt stays pending until the bound', async () => {
    await setEnvironment('test');
    try {
      const { id, amount } = await start();
      hostAnswer = (order) => {
        const genuine = redsysAnswer({ order, amount, state: 'F', response: '0000' });
        const signature = /&lt;Signature&gt;([^&]+)&lt;/.exec(genuine)?.[1] ?? '';
        return genuine.replace(signature, soapSignature(order, 'forged', OTHER_KEY));
      };
      await age(id);
      expect(await reconciler().reconcileTenant('demo')).toEqual([
        { attemptId: id, outcome: 'unanswered' },
      ]);
      expect(await statusOf(id)).toBe('pending');
      await age(id, 61);
      expect(await reconciler(60).reconcileTenant('demo')).toEqual([
        { attemptId: id, outcome: 'expired' },
      ]);
      expect(await statusOf(id)).toBe('failed');
    } finally {
      await setEnvironment('simulator');
    }
  });

  it('asks the gateway about a superseded attempt: paid on the old card page, it pays', async () => {
    const [first] = (
      await me.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{
      payments: { payment_id: string; amount: number }[];
    }>().payments;
    const body = { amount: first?.amount, payment_ids: [first?.payment_id] };
    const old = (await me.post('/redsys/init-payment', body)).json<{
      payment_id: string;
      redsys_params: Record<string, string>;
    }>();
    // The customer opened the card page, went Back and started again (the old one is superseded)...
    const again = (await me.post('/redsys/init-payment', body)).json<{ payment_id: string }>();
    expect(await statusOf(old.payment_id)).toBe('superseded');
    // ...but then paid on the old page after all, and its notification was lost.
    await payAtSimulator(sim, simUrl, old.redsys_params);
    await age(old.payment_id);
    await age(again.payment_id);
    const results = await reconciler().reconcileTenant('demo');
    // The old attempt's money is recorded and pays the instalment; the new one was never paid.
    expect(results).toContainEqual({ attemptId: old.payment_id, outcome: 'paid' });
    expect(results).toContainEqual({ attemptId: again.payment_id, outcome: 'released' });
    expect(await statusOf(old.payment_id)).toBe('paid');
    // Settled: neither is asked about again.
    const later = await reconciler().reconcileTenant('demo');
    expect(later.map((r) => r.attemptId)).not.toContain(old.payment_id);
    expect(later.map((r) => r.attemptId)).not.toContain(again.payment_id);
  });
});
