import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  PUBLIC_TEST_MERCHANT,
  createQueryAnswer,
  createRestResponse,
  decodeMerchantParameters,
  readQueryRequest,
  verifyQuerySignature,
} from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import type { TenantGatewayRow } from '../src/modules/payments/repository.ts';

// Redsys' public test merchant: public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Lk9m98IfEblmPfrpsawt7BmxObt98Jev';

type Seen = { path: string; headers: IncomingMessage['headers']; body: string };
type Handler = (seen: Seen, res: ServerResponse) => void;

/**
 * A local HTTP server standing in for a Redsys host: it answers with fixed, real-shaped bodies,
 * and records what the client sent.
 */
describe('the gateway client (redsys-client.ts) against a Redsys-shaped HTTP server', () => {
  let server: Server;
  let origin: string;
  let handler: Handler = (_seen, res) => res.end();
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const entry = { path: req.url ?? '', headers: req.headers, body };
        seen.push(entry);
        handler(entry, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const gateway = (environment: TenantGatewayRow['redsys_environment'] = 'simulator') =>
    ({
      company_name: 'Demo',
      canonical_url: 'http://localhost',
      redsys_environment: environment,
      redsys_merchant_code: '999008881',
      redsys_terminal: '1',
      redsys_secret_key: KEY,
      redsys_signature_versions: ['HMAC_SHA256_V1'],
      redsys_pay_methods: [],
      auto_refund: true,
    }) satisfies TenantGatewayRow;
  const client = (timeoutMs = 2_000) => createRedsysClient({ simulatorUrl: origin, timeoutMs });
  const operation = {
    order: '1234abcd',
    transactionType: '0',
    state: 'F',
    response: '0000',
    amountCents: 4250,
    currency: '978',
    authorisationCode: '123456',
    merchantCode: '999008881',
    terminal: '001',
    date: '2026-11-21',
    hour: '10:00',
  };
  const xml = (res: ServerResponse, body: string, status = 200) =>
    res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(body);
  const json = (res: ServerResponse, body: unknown, status = 200) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('posts the signed SOAP query with SOAPAction and reads the signed answer', async () => {
    handler = (request, res) =>
      xml(res, createQueryAnswer({ secret: KEY, order: '1234abcd', operations: [operation] }));
    const answer = await client().queryOrder(gateway(), '1234abcd');
    expect(answer).toEqual({ kind: 'ok', operations: [operation] });
    const sent = seen.at(-1);
    expect(sent?.path).toBe('/apl02/services/SerClsWSConsulta');
    expect(sent?.headers.soapaction).toBe('consultaOperaciones');
    expect(sent?.headers['content-type']).toBe('text/xml; charset=utf-8');
    const read = readQueryRequest(sent?.body ?? '');
    expect(read).toMatchObject({ ok: true, message: 'Transaction', transactionType: '0' });
    if (!read.ok) throw new Error('unreachable');
    expect(verifyQuerySignature(KEY, '1234abcd', read.version, read.signature)).toBe(true);
  });

  it('sends a Monitor query when asked', async () => {
    handler = (_request, res) => xml(res, createQueryAnswer({ errorCode: 'XML0024' }));
    expect(await client().queryOrder(gateway(), '1234abcd', { message: 'Monitor' })).toEqual({
      kind: 'not_found',
    });
    expect(readQueryRequest(seen.at(-1)?.body ?? '')).toMatchObject({ message: 'Monitor' });
  });

  it('ends every fault in a typed failure', async () => {
    const cases: [Handler, object][] = [
      [
        (_r, res) =>
          xml(
            res,
            createQueryAnswer({ secret: OTHER_KEY, order: '1234abcd', operations: [operation] }),
          ),
        { kind: 'failed', reason: 'bad_signature' },
      ],
      [
        (_r, res) => xml(res, '<html>Bad gateway</html>', 502),
        { kind: 'failed', reason: 'http', status: 502 },
      ],
      [(_r, res) => xml(res, '<html>maintenance</html>'), { kind: 'failed', reason: 'malformed' }],
      [(_r, res) => xml(res, 'x'.repeat(600_000)), { kind: 'failed', reason: 'malformed' }],
      [() => undefined, { kind: 'failed', reason: 'timeout' }],
      [
        (_r, res) => xml(res, createQueryAnswer({ errorCode: 'XML0041' })),
        { kind: 'error', code: 'XML0041' },
      ],
    ];
    for (const [next, expected] of cases) {
      handler = next;
      expect(await client(300).queryOrder(gateway(), '1234abcd')).toEqual(expected);
    }
    const refused = createRedsysClient({ simulatorUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
    expect(await refused.queryOrder(gateway(), '1234abcd')).toEqual({
      kind: 'failed',
      reason: 'network',
    });
    expect(
      await client().queryOrder({ ...gateway(), redsys_secret_key: null }, '1234abcd'),
    ).toEqual({ kind: 'failed', reason: 'not_configured' });
    // An order the SOAP service cannot take (XML0015) is never sent.
    const before = seen.length;
    expect(await client().queryOrder(gateway(), 'abcd1234')).toEqual({
      kind: 'failed',
      reason: 'not_configured',
    });
    expect(seen.length).toBe(before);
  });

  it('serves test and production tenants the same way, at their host', async () => {
    handler = (_request, res) =>
      xml(res, createQueryAnswer({ secret: KEY, order: '1234abcd', operations: [operation] }));
    for (const environment of ['test', 'production'] as const) {
      const asHost = createRedsysClient({
        simulatorUrl: 'http://127.0.0.1:9',
        hosts: { [environment]: origin },
        timeoutMs: 2_000,
      });
      expect(await asHost.queryOrder(gateway(environment), '1234abcd')).toEqual({
        kind: 'ok',
        operations: [operation],
      });
      expect(seen.at(-1)?.path).toBe('/apl02/services/SerClsWSConsulta');
    }
  });

  describe('refund', () => {
    const input = {
      order: '1234abcd',
      amountCents: 1000,
      terminal: '1',
      merchantCode: '999008881',
    };
    const signed = (params: Record<string, string>, secret: string = KEY) =>
      createRestResponse({ version: 'HMAC_SHA256_V1', secret, params });
    const refunded = {
      Ds_Amount: '1000',
      Ds_Currency: '978',
      Ds_Order: '1234abcd',
      Ds_MerchantCode: '999008881',
      Ds_Terminal: '1',
      Ds_TransactionType: '3',
      Ds_Response: '0900',
      Ds_AuthorisationCode: '654321',
    };

    it('posts the signed JSON type 3 on the original order and reads 0900', async () => {
      handler = (_r, res) => json(res, signed(refunded));
      expect(await client().refund(gateway(), input)).toEqual({
        ok: true,
        authorisationCode: '654321',
      });
      const sent = seen.at(-1);
      expect(sent?.path).toBe('/sis/rest/trataPeticionREST');
      expect(sent?.headers['content-type']).toBe('application/json');
      const body = JSON.parse(sent?.body ?? '{}') as Record<string, string>;
      expect(body.Ds_SignatureVersion).toBe('HMAC_SHA256_V1');
      expect(decodeMerchantParameters(body.Ds_MerchantParameters ?? '')).toEqual({
        DS_MERCHANT_ORDER: '1234abcd',
        DS_MERCHANT_MERCHANTCODE: '999008881',
        DS_MERCHANT_TERMINAL: '1',
        DS_MERCHANT_CURRENCY: '978',
        DS_MERCHANT_TRANSACTIONTYPE: '3',
        DS_MERCHANT_AMOUNT: '1000',
      });
    });

    it.each([
      [
        'a refused refund',
        (_r: Seen, res: ServerResponse) => json(res, signed({ ...refunded, Ds_Response: '0950' })),
        { ok: false, code: '0950', retryable: false },
      ],
      [
        'an unsigned SIS error',
        (_r: Seen, res: ServerResponse) => json(res, { errorCode: 'SIS0057' }),
        { ok: false, code: 'SIS0057', retryable: false },
      ],
      [
        'a forged answer',
        (_r: Seen, res: ServerResponse) => json(res, signed(refunded, OTHER_KEY)),
        { ok: false, code: 'bad_signature', retryable: false },
      ],
      [
        'an HTML page',
        (_r: Seen, res: ServerResponse) => xml(res, '<html/>'),
        { ok: false, code: 'malformed', retryable: false },
      ],
      [
        'a 503',
        (_r: Seen, res: ServerResponse) => json(res, {}, 503),
        { ok: false, code: 'http_503', retryable: true },
      ],
      [
        'a 400',
        (_r: Seen, res: ServerResponse) => json(res, {}, 400),
        { ok: false, code: 'http_400', retryable: false },
      ],
      ['no answer', () => undefined, { ok: false, code: 'timeout', retryable: true }],
    ] as const)('ends %s in a typed failure', async (_name, next, expected) => {
      handler = next;
      expect(await client(300).refund(gateway(), input)).toEqual(expected);
    });

    it('reports a refused connection as retryable, a missing key as not', async () => {
      const refused = createRedsysClient({ simulatorUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
      expect(await refused.refund(gateway(), input)).toEqual({
        ok: false,
        code: 'network',
        retryable: true,
      });
      // A port nothing listens on (fetch's blocked ports above never even try to connect).
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as { port: number }).port;
      await new Promise((resolve) => closed.close(resolve));
      const nobody = createRedsysClient({
        simulatorUrl: `http://127.0.0.1:${port}`,
        timeoutMs: 2_000,
      });
      expect(await nobody.refund(gateway(), input)).toEqual({
        ok: false,
        code: 'network',
        retryable: true,
      });
      expect(await client().refund({ ...gateway(), redsys_terminal: null }, input)).toEqual({
        ok: false,
        code: 'not_configured',
        retryable: false,
      });
    });

    it('reports a connection cut after the request went out as connection_lost, not network', async () => {
      handler = (_seen, res) => res.socket?.destroy();
      expect(await client().refund(gateway(), input)).toMatchObject({
        ok: false,
        code: 'connection_lost',
      });
    });
  });
});
