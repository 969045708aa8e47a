import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import {
  invoicePageOn,
  serverEnv,
  type InvoicePageRequest,
  type InvoicePageRow,
} from './invoice-page.ts';

/**
 * The embedded database's floor: the minimal Fastify route of fastify-pg.ts on PGlite, in
 * process, on a copy of the portal's PGlite data set (a data folder opens in one process at a
 * time). The same statement and answer as the PostgreSQL floor; no auth, row-level security,
 * transaction, validation or schema serialisation. PGlite runs one statement at a time, so
 * there is no pool and nothing to prepare.
 */
const { port } = serverEnv();
const dataDir = process.env.PGLITE_DIR;
if (!dataDir) throw new Error('PGLITE_DIR: the database folder to open');
if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new Error(`${dataDir} holds no database`);
const db = await PGlite.create({ dataDir });
const page = invoicePageOn(
  async (text, values) => (await db.query<InvoicePageRow>(text, values)).rows,
);
const app = Fastify();
app.get('/health', async () => 'ok');
app.post('/invoices', async (request) => page(request.body as InvoicePageRequest));
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => db.close());
});
