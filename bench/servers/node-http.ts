import { createServer } from 'node:http';
import {
  createFloorPools,
  createInvoicePage,
  serverEnv,
  type InvoicePageRequest,
} from './invoice-page.ts';

/** Baseline 1: node:http and pg, nothing else. `GET /health` tells the bench it is up. */
const { port, databaseUrl, poolSize } = serverEnv();
const pools = createFloorPools(databaseUrl, poolSize);
const invoices = createInvoicePage(pools);

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (req.method !== 'POST' || req.url !== '/invoices') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    invoices
      .page(JSON.parse(Buffer.concat(chunks).toString()) as InvoicePageRequest)
      .then((page) => {
        const body = JSON.stringify(page);
        res
          .writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
          })
          .end(body);
      })
      .catch((error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      });
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void invoices.close();
});
