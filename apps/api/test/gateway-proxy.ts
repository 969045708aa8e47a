import { createServer } from 'node:http';
import { decodeMerchantParameters, REST_SERVICE_PATH } from '@portal/redsys';

/**
 * What happens to a call between the portal and the simulator: passed on; cut before it reaches
 * the simulator; cut after the simulator did it (its answer lost); or, done, answered with a page
 * instead of the simulator's signed answer.
 */
export type ProxyMode = 'pass' | 'cut-before' | 'cut-after' | 'junk-after';

/**
 * A proxy in front of the Redsys simulator at `simUrl` whose refund calls (trataPeticionREST) and
 * queries go as `route` says at the moment; `reached` lists the orders of the refund calls that
 * reached the simulator.
 */
export async function startGatewayProxy(simUrl: string) {
  const route: { refund: ProxyMode; query: ProxyMode } = { refund: 'pass', query: 'pass' };
  const reached: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const isRefund = req.url === REST_SERVICE_PATH;
      const mode = isRefund ? route.refund : route.query;
      if (mode === 'cut-before') return void res.socket?.destroy();
      if (isRefund) {
        const sent = JSON.parse(body) as { Ds_MerchantParameters: string };
        reached.push(decodeMerchantParameters(sent.Ds_MerchantParameters).DS_MERCHANT_ORDER ?? '');
      }
      void fetch(new URL(req.url ?? '/', simUrl), {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' },
        body,
      }).then(async (answer) => {
        const text = await answer.text();
        if (mode === 'cut-after') return void res.socket?.destroy();
        if (mode === 'junk-after') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return void res.end('<html><body>Servicio no disponible temporalmente</body></html>');
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    route,
    reached,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
