import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFixedRate, type FixedRateClient, type RequestSample } from './load.ts';

/** Answers 200 after `?ms=` milliseconds, 500 on `/fail`; counts what it received. */
let server: Server;
let url = '';
const received: { method: string; path: string; body: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        auth: req.headers.authorization,
      });
      const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
      setTimeout(() => res.writeHead(req.url === '/fail' ? 500 : 200).end('{"ok":true}'), ms);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each<FixedRateClient>(['undici', 'node:http'])('runFixedRate with %s', (client) => {
  it('sends every request due, with its method, headers and body, and times the answers', async () => {
    received.length = 0;
    let i = 0;
    const result = await runFixedRate({
      url,
      client,
      rate: 200,
      seconds: 0.25,
      connections: 5,
      next: () => ({
        method: 'POST',
        path: `/x?ms=20&i=${i++}`,
        headers: { authorization: 'Bearer t' },
        body: '{"a":1}',
      }),
    });
    expect(result.requests).toBe(50);
    expect(result.failures).toBe(0);
    expect(received).toHaveLength(50);
    expect(received.every((r) => r.method === 'POST' && r.body === '{"a":1}')).toBe(true);
    expect(received.every((r) => r.auth === 'Bearer t')).toBe(true);
    // Every answer took the server's 20 ms at least.
    expect(result.p50).toBeGreaterThanOrEqual(20);
  });

  it('counts latency from when a request was due: waiting for a connection is in it', async () => {
    // One connection, 100 ms answers, 10 due within 50 ms: the last waits behind nine others.
    const result = await runFixedRate({
      url,
      client,
      rate: 200,
      seconds: 0.05,
      connections: 1,
      next: () => ({ method: 'GET', path: '/x?ms=100' }),
    });
    expect(result.failures).toBe(0);
    expect(result.p99).toBeGreaterThanOrEqual(900);
  });

  it('gives each request its sample when asked: due time, lateness and latency, none for a failure', async () => {
    const samples: RequestSample[] = [];
    const before = Date.now();
    let i = 0;
    const result = await runFixedRate({
      url,
      client,
      rate: 100,
      seconds: 0.1,
      connections: 2,
      samples,
      next: () => ({ method: 'GET', path: i++ % 2 === 0 ? '/x?ms=20' : '/fail' }),
    });
    expect(result.failures).toBe(5);
    expect(samples).toHaveLength(10);
    const dues = samples.map((s) => s.due).sort((a, b) => a - b);
    // Due 10 ms apart, on the epoch's clock.
    expect(dues[0]).toBeGreaterThanOrEqual(before - 5);
    expect((dues[9] as number) - (dues[0] as number)).toBeCloseTo(90, 0);
    expect(samples.filter((s) => s.latency === null)).toHaveLength(5);
    // The server answers after a 20 ms timer, which Node may fire up to a millisecond early
    // by performance.now()'s clock (the official CI saw 19.93 ms).
    for (const s of samples.filter((x) => x.latency !== null))
      expect(s.latency).toBeGreaterThanOrEqual(19);
    expect(samples.every((s) => s.late >= 0)).toBe(true);
  });

  it('counts an error answer as a failure, not as a latency', async () => {
    const result = await runFixedRate({
      url,
      client,
      rate: 100,
      seconds: 0.1,
      connections: 2,
      next: () => ({ method: 'GET', path: '/fail' }),
    });
    expect(result.failures).toBe(10);
    expect(result.rps).toBe(0);
  });
});
