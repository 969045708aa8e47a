import { routes } from '@portal/contract';
import Fastify from 'fastify';
import { openPostgres, type Database } from '../../apps/api/src/db/database.ts';
import { deriveKey } from '../../apps/api/src/lib/secrets.ts';
import { serializerCompiler, validatorCompiler } from '../../apps/api/src/lib/zod-compilers.ts';
import { createAccessTokens } from '../../apps/api/src/modules/auth/tokens.ts';
import { createInvoiceService } from '../../apps/api/src/modules/invoices/service.ts';
import { serverEnv, type InvoicePageRequest } from './invoice-page.ts';

/**
 * Diagnosis: the minimal Fastify route with the portal's own pieces added one at a time, so that
 * the throughput lost between the minimal route and the portal's `/invoices` can be put on each.
 *   /tx          + the portal's data path: invoice service -> readTenant (the application role
 *                  and the tenant set for one implicit transaction, row-level security, sent with
 *                  the statement in one round trip) -> repository
 *   /tx-auth     + the bearer token verified as requireCustomer does (jose, HS256)
 *   /tx-auth-zod + the contract's zod schemas validating the body and serialising the answer, with
 *                  the portal's compilers
 *   /tx-3rt      /tx as it was before: BEGIN with the tenant, the query, COMMIT (three round
 *                trips): what the one-round-trip read gained
 * What the portal adds beyond that is its plugin tree: tenant lookup (cached), security headers,
 * cookies, compression (unused by the load, which asks for none), request ids and logging.
 */
const { port, databaseUrl, poolSize } = serverEnv();
const db = openPostgres({ connectionString: databaseUrl, max: poolSize });
const service = createInvoiceService(db);

/**
 * The data path as it was before reads took one round trip: `readTenant` as a whole transaction
 * (BEGIN with the tenant, the statement, COMMIT: three round trips). Kept to show the difference.
 */
const threeTrips: Database = { ...db, readTenant: (tenantId, fn) => db.withTenant(tenantId, fn) };
const threeTripService = createInvoiceService(threeTrips);
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
app.post('/tx-3rt', async (request) => {
  const q = request.body as InvoicePageRequest;
  return threeTripService.list({ tenantId: q.tenant, customerId: q.customer }, q);
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
  void app.close().then(() => db.close());
});
