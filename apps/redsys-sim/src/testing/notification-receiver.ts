import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedNotification = {
  contentType: string | undefined;
  body: Record<string, string>;
  raw: string;
};

/**
 * A real HTTP server on 127.0.0.1 standing in for the portal's notification endpoint. Answers
 * the statuses in `statuses` in turn (then 200), and records every POST it gets.
 */
export async function startNotificationReceiver(statuses: number[] = []) {
  const received: ReceivedNotification[] = [];
  const queue = [...statuses];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({
        contentType: request.headers['content-type'],
        body: Object.fromEntries(new URLSearchParams(raw)),
        raw,
      });
      response.statusCode = queue.shift() ?? 200;
      response.end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/redsys/notification`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
