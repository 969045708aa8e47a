import Fastify from 'fastify';
import {
  createFloorPools,
  createInvoicePage,
  serverEnv,
  type InvoicePageRequest,
} from './invoice-page.ts';
import { createPaymentPage, type PaymentPageRequest } from './payment-page.ts';

/**
 * Baseline 2: a minimal Fastify route and pg, with Fastify's defaults (JSON body parser, no
 * schema, no logger): what the portal would cost with no auth, RLS, transaction or validation.
 * `/invoices-prepared` sends the same query as a prepared statement, as the portal's reads do: the
 * floor for what auth, RLS, validation and serialisation cost with the query sent the same way.
 * `/payments` and `/payments-prepared`: the same for the portal's `/payments` (payment-page.ts).
 */
const { port, databaseUrl, poolSize } = serverEnv();
const pools = createFloorPools(databaseUrl, poolSize);
const invoices = createInvoicePage(pools);
const payments = createPaymentPage(pools);
const app = Fastify();
app.get('/health', async () => 'ok');
// Ready once the database answers: the floor of the service section's start-to-ready (one query).
app.get('/ready', async () => invoices.ping());
app.post('/invoices', async (request) => invoices.page(request.body as InvoicePageRequest));
app.post('/invoices-prepared', async (request) =>
  invoices.page(request.body as InvoicePageRequest, true),
);
app.post('/payments', async (request) => payments.page(request.body as PaymentPageRequest));
app.post('/payments-prepared', async (request) =>
  payments.page(request.body as PaymentPageRequest, true),
);
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => invoices.close());
});
