import { routes } from '@portal/contract';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pg from 'pg';
import { appRole, openPostgres, type Database } from '../../apps/api/src/db/database.ts';
import { deriveKey } from '../../apps/api/src/lib/secrets.ts';
import { createAccessTokens } from '../../apps/api/src/modules/auth/tokens.ts';
import { createInvoiceService } from '../../apps/api/src/modules/invoices/service.ts';
import { serverEnv, type InvoicePageRequest } from './invoice-page.ts';

/**
 * Diagnosis: the minimal Fastify route with the portal's own pieces added one at a time, so that
 * the throughput lost between the minimal route and the portal's `/invoices` can be put on each.
 *   /tx          + the portal's data path: invoice service -> withTenant (one transaction as the
 *                  application role with the tenant set, row-level security) -> repository
 *   /tx-auth     + the bearer token verified as requireCustomer does (jose, HS256)
 *   /tx-auth-zod + the contract's zod schemas validating the body and serialising the answer
 *   /tx-1rt      /tx with its transaction sent as ONE round trip (BEGIN, tenant, query, COMMIT in
 *                one simple-protocol message, values escaped as literals) instead of three: what
 *                the portal would gain for its single-statement reads
 * What the portal adds beyond that is its plugin tree: tenant lookup (cached), security headers,
 * cookies, compression (unused by the load, which asks for none), request ids and logging.
 */
const { port, databaseUrl, poolSize } = serverEnv();
const db = openPostgres({ connectionString: databaseUrl, max: poolSize });
const service = createInvoiceService(db);

/**
 * withTenant for transactions of one statement, in one round trip. Only `query` is supported and
 * only once; enough for the list.
 */
const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
const oneTrip: Database = {
  kind: 'postgres',
  async withTenant(tenantId, fn) {
    const client = await pool.connect();
    try {
      return await fn({
        async query<Row>(text: string, params: readonly unknown[] = []) {
          const literal = (v: unknown) =>
            v === null || v === undefined ? 'NULL' : client.escapeLiteral(String(v));
          const inlined = text.replace(/\$(\d+)/g, (_, n: string) =>
            literal(params[Number(n) - 1]),
          );
          const results = (await client.query(
            `BEGIN; SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', ${literal(tenantId)}, true); ${inlined}; COMMIT`,
          )) as unknown as pg.QueryResult[];
          return (results[2]?.rows ?? []) as Row[];
        },
        async exec() {
          throw new Error('not supported');
        },
      });
    } finally {
      client.release();
    }
  },
  withOwner: () => Promise.reject(new Error('not supported')),
  close: () => pool.end(),
};
const oneTripService = createInvoiceService(oneTrip);
const tokens = createAccessTokens(
  deriveKey(Buffer.from(process.env.APP_SECRET ?? '', 'base64'), 'access-token'),
  3600,
);

async function customerOf(tenant: string, authorization: string | undefined): Promise<string> {
  const verdict = await tokens.verify(authorization?.slice('Bearer '.length) ?? '', tenant);
  if (!verdict.ok) throw Object.assign(new Error('unauthorized'), { statusCode: 401 });
  return verdict.claims.customerId;
}

const app = Fastify();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
app.get('/health', async () => 'ok');
app.post('/tx', async (request) => {
  const q = request.body as InvoicePageRequest;
  return service.list({ tenantId: q.tenant, customerId: q.customer }, q);
});
app.post('/tx-1rt', async (request) => {
  const q = request.body as InvoicePageRequest;
  return oneTripService.list({ tenantId: q.tenant, customerId: q.customer }, q);
});
app.post('/tx-auth', async (request) => {
  const q = request.body as InvoicePageRequest;
  const customerId = await customerOf(q.tenant, request.headers.authorization);
  return service.list({ tenantId: q.tenant, customerId }, q);
});
app.post(
  '/tx-auth-zod',
  { schema: { body: routes.invoices.body, response: { 200: routes.invoices.response } } },
  async (request) => {
    const q = request.body as InvoicePageRequest & { tenant: string };
    const tenant = (request.headers['x-tenant'] as string | undefined) ?? '';
    const customerId = await customerOf(tenant, request.headers.authorization);
    return service.list({ tenantId: tenant, customerId }, q);
  },
);
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => Promise.all([db.close(), oneTrip.close()]));
});
