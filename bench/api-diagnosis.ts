import { routes } from '@portal/contract';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { appRole, openPostgres } from '../apps/api/src/db/database.ts';
import { deriveKey } from '../apps/api/src/lib/secrets.ts';
import { serializerCompiler } from '../apps/api/src/lib/zod-compilers.ts';
import { createAccessTokens } from '../apps/api/src/modules/auth/tokens.ts';
import { createInvoiceRepository } from '../apps/api/src/modules/invoices/repository.ts';
import { helmetOptions } from '../apps/api/src/plugins/external/security.ts';
import { createInvoiceService } from '../apps/api/src/modules/invoices/service.ts';
import type { ProfileSummary } from './lib/cpu-profile.ts';
import { invoicePageSql } from './servers/invoice-page.ts';
import { median, round } from './lib/stats.ts';

/**
 * Where a portal `/invoices` request spends its time, measured piece by piece in this process:
 * the token check, the zod validation and serialisation, and the data path (one plain query on a
 * pool versus the portal's transaction per request), plus the query plan with the data set's
 * volume.
 */
export type ApiDiagnosis = {
  microseconds: {
    /** The portal's check of a token it has seen before (its verified-token cache). */
    verifyToken: number;
    /** A first sight: jose with the key as bytes, which jose imports into WebCrypto every call. */
    verifyTokenFirst: number;
    /** The same check with the key imported once. */
    verifyTokenImportedKey: number;
    /** An HS256 signature checked with node:crypto directly, claims parsed (no jose). */
    verifyTokenNodeHmac: number;
    validateBody: number;
    serializeWithSchema: number;
    serializePlain: number;
    /** Security headers as @fastify/helmet 13 set them (the portal before): helmet(options) built for every request. */
    helmetPerRequest: number;
    /** The same headers from a helmet middleware built once. */
    helmetPrebuilt: number;
  };
  /** One request at a time, so these are round-trip latencies, not throughput. */
  sequentialMs: { plainQuery: number; withTenant: number; readTenant: number; serviceList: number };
  roundTrips: { plainQuery: number; withTenant: number; readTenant: number };
  explain: { sql: string; plan: string; executionMs: number; planningMs: number };
  /** Where the portal's main thread spends its time under /invoices load (node --cpu-prof). */
  profile?: ProfileSummary;
};

type Session = { tenant: string; customerId: string; token: string };

/**
 * Microseconds per operation of each variant: `blocks` blocks of `perBlock` operations, the
 * variants taking turns block by block, and the median block of each. On a shared machine a slow
 * moment then costs every variant one block rather than one variant its whole measurement.
 */
async function compare<K extends string>(
  variants: Record<K, (i: number) => unknown>,
  perBlock: number,
  blocks = 11,
): Promise<Record<K, number>> {
  const names = Object.keys(variants) as K[];
  const times = new Map<K, number[]>(names.map((n) => [n, []]));
  for (const name of names) for (let i = 0; i < perBlock; i++) await variants[name](i);
  for (let b = 0; b < blocks; b++) {
    for (const name of names) {
      const started = performance.now();
      for (let i = 0; i < perBlock; i++) await variants[name](b * perBlock + i);
      times.get(name)?.push(((performance.now() - started) * 1000) / perBlock);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times.get(n) ?? [])])) as Record<K, number>;
}

export async function diagnoseApi(options: {
  databaseUrl: string;
  appSecret: string;
  sessions: Session[];
  ranges: { datefrom: string; dateto: string };
  log: (line: string) => void;
}): Promise<ApiDiagnosis> {
  const { sessions, ranges } = options;
  const at = (i: number) => sessions[i % sessions.length] as Session;
  const tokens = createAccessTokens(
    deriveKey(Buffer.from(options.appSecret, 'base64'), 'access-token'),
    3600,
  );
  const rawKey = deriveKey(Buffer.from(options.appSecret, 'base64'), 'access-token');
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(rawKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const token = await compare(
    {
      portal: (i) => tokens.verify(at(i).token, at(i).tenant),
      first: (i) =>
        jwtVerify(at(i).token, rawKey, {
          algorithms: ['HS256'],
          issuer: 'oficina-online',
          audience: `tenant:${at(i).tenant}`,
        }),
      importedKey: (i) =>
        jwtVerify(at(i).token, cryptoKey, {
          algorithms: ['HS256'],
          issuer: 'oficina-online',
          audience: `tenant:${at(i).tenant}`,
        }),
      nodeHmac: (i) => {
        const [header = '', payload = '', signature = ''] = at(i).token.split('.');
        const expected = createHmac('sha256', rawKey).update(`${header}.${payload}`).digest();
        const given = Buffer.from(signature, 'base64url');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          throw new Error('bad signature');
        }
        return JSON.parse(Buffer.from(payload, 'base64url').toString()) as unknown;
      },
    },
    400,
  );
  const body = { ...ranges, page: 1 };

  // The portal's own helmet options (plugins/external/security.ts), on a stand-in response.
  const portalHelmetOptions = helmetOptions({ paymentFormOrigins: [], tls: false });
  const fakeRequest = {} as IncomingMessage;
  const fakeResponse = {
    setHeader: () => fakeResponse,
    removeHeader: () => {},
    getHeader: () => undefined,
  } as unknown as ServerResponse;
  const noop = () => {};
  const prebuilt = helmet(portalHelmetOptions);
  const plugins = await compare(
    {
      helmetPerRequest: () => helmet(portalHelmetOptions)(fakeRequest, fakeResponse, noop),
      helmetPrebuilt: () => prebuilt(fakeRequest, fakeResponse, noop),
    },
    2000,
  );

  const db = openPostgres({ connectionString: options.databaseUrl, max: 2 });
  const service = createInvoiceService(db);
  const repository = createInvoiceRepository();
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  try {
    const page = await service.list({ tenantId: at(0).tenant, customerId: at(0).customerId }, body);
    // The answer as the portal writes it: its serializer, the route's schema.
    const answerOfInvoices = serializerCompiler({
      schema: routes.invoices.response,
      method: 'POST',
      url: routes.invoices.path,
    });
    const zod = await compare(
      {
        validateBody: () => routes.invoices.body.safeParse(body),
        serializeWithSchema: () => answerOfInvoices(page),
        serializePlain: () => JSON.stringify(page),
      },
      2000,
    );
    const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
    const q = (i: number) => ({
      customerId: at(i).customerId,
      from: iso(ranges.datefrom),
      to: iso(ranges.dateto),
      today: iso(ranges.dateto),
      offset: 0,
      limit: 21,
    });
    const data = await compare(
      {
        plainQuery: (i) =>
          pool.query(invoicePageSql, [
            q(i).customerId,
            q(i).from,
            q(i).to,
            21,
            0,
            q(i).today,
            at(i).tenant,
          ]),
        withTenant: (i) => db.withTenant(at(i).tenant, (sql) => repository.listInvoices(sql, q(i))),
        readTenant: (i) => db.readTenant(at(i).tenant, (sql) => repository.listInvoices(sql, q(i))),
        serviceList: (i) =>
          service.list({ tenantId: at(i).tenant, customerId: at(i).customerId }, body),
      },
      100,
    );

    // The plan of the portal's own query, run as the portal runs it: the application role, the
    // tenant set for the transaction, row-level security on.
    const client = await pool.connect();
    let explain: ApiDiagnosis['explain'];
    try {
      const s = at(3);
      await client.query('BEGIN');
      await client.query(
        `SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', $1, true)`,
        [s.tenant],
      );
      const captured: { text: string; params: readonly unknown[] }[] = [];
      await repository.listInvoices(
        {
          query: async <Row>(text: string, params: readonly unknown[] = []) => {
            captured.push({ text, params });
            return [] as Row[];
          },
        },
        { ...q(3), customerId: s.customerId },
      );
      const [{ text, params } = { text: '', params: [] }] = captured;
      // The last of a few runs: the connection's catalog caches are warm, as in a running server.
      let rows: { 'QUERY PLAN': string }[] = [];
      for (let i = 0; i < 5; i++) {
        ({ rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`,
          params as unknown[],
        ));
      }
      await client.query('ROLLBACK');
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      const ms = (label: string) =>
        Number(new RegExp(`${label} Time: ([\\d.]+) ms`).exec(plan)?.[1]);
      explain = {
        sql: text.replace(/\s+/g, ' ').trim(),
        plan,
        executionMs: ms('Execution'),
        planningMs: ms('Planning'),
      };
    } finally {
      client.release();
    }
    const result: ApiDiagnosis = {
      microseconds: {
        verifyToken: round(token.portal, 1),
        verifyTokenFirst: round(token.first, 1),
        verifyTokenImportedKey: round(token.importedKey, 1),
        verifyTokenNodeHmac: round(token.nodeHmac, 1),
        validateBody: round(zod.validateBody, 1),
        serializeWithSchema: round(zod.serializeWithSchema, 1),
        serializePlain: round(zod.serializePlain, 1),
        helmetPerRequest: round(plugins.helmetPerRequest, 1),
        helmetPrebuilt: round(plugins.helmetPrebuilt, 1),
      },
      sequentialMs: {
        plainQuery: round(data.plainQuery / 1000, 3),
        withTenant: round(data.withTenant / 1000, 3),
        readTenant: round(data.readTenant / 1000, 3),
        serviceList: round(data.serviceList / 1000, 3),
      },
      // withTenant: BEGIN + set_config travel together; then the query; then COMMIT. readTenant:
      // set_config and the statement in one message (what the portal's list reads use).
      roundTrips: { plainQuery: 1, withTenant: 3, readTenant: 1 },
      explain,
    };
    options.log(
      `  per request: token ${result.microseconds.verifyToken} µs (first sight ${result.microseconds.verifyTokenFirst} µs, key imported once ${result.microseconds.verifyTokenImportedKey} µs, node:crypto ${result.microseconds.verifyTokenNodeHmac} µs), body ${result.microseconds.validateBody} µs, ` +
        `answer through its schema ${result.microseconds.serializeWithSchema} µs (plain ${result.microseconds.serializePlain} µs); ` +
        `query alone ${result.sequentialMs.plainQuery} ms, in withTenant ${result.sequentialMs.withTenant} ms, in readTenant ${result.sequentialMs.readTenant} ms; ` +
        `server-side execution ${explain.executionMs} ms`,
    );
    return result;
  } finally {
    await pool.end();
    await db.close();
  }
}
