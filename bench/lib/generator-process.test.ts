import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeneratorProcess, type GeneratorProcess } from './generator-process.ts';

/** Answers 200 (500 on `/fail`) after 5 ms; keeps the paths and bodies it received. */
let server: Server;
let url = '';
const received: { path: string; body: string }[] = [];
let generator: GeneratorProcess;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      setTimeout(() => res.writeHead(req.url === '/fail' ? 500 : 200).end('{}'), 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  generator = await startGeneratorProcess();
}, 30_000);
afterAll(async () => {
  await generator.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the generator process', () => {
  it('is a process of its own, with the collector on its one thread', () => {
    expect(generator.pid).not.toBe(process.pid);
    const args = readFileSync(`/proc/${generator.pid}/cmdline`, 'utf8').split('\0');
    expect(args).toContain('--single-threaded-gc');
  });

  it('sends the requests given, in order and cycling, and answers the run with its samples', async () => {
    received.length = 0;
    const result = await generator.run({
      url,
      requests: [0, 1, 2].map((i) => ({ method: 'POST', path: `/r${i}`, body: `{"i":${i}}` })),
      rate: 100,
      seconds: 0.1,
      connections: 2,
      samples: true,
    });
    expect(result.requests).toBe(10);
    expect(result.failures).toBe(0);
    expect(received.map((r) => r.path).sort()).toEqual(
      ['/r0', '/r1', '/r2', '/r0', '/r1', '/r2', '/r0', '/r1', '/r2', '/r0'].sort(),
    );
    expect(received.every((r) => r.body === `{"i":${r.path.slice(2)}}`)).toBe(true);
    expect(result.p50).toBeGreaterThanOrEqual(5);
    expect(result.samples).toHaveLength(10);
    // Due on the epoch clock, 10 ms apart.
    const due = (result.samples ?? []).map((s) => s.due).sort((a, b) => a - b);
    expect(Math.abs((due[0] ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(Math.round((due[9] ?? 0) - (due[0] ?? 0))).toBe(90);
  });

  it('counts failures and keeps no samples unless asked', async () => {
    const result = await generator.run({
      url,
      requests: [{ method: 'GET', path: '/fail' }],
      rate: 100,
      seconds: 0.05,
      connections: 1,
      samples: false,
      client: 'node:http',
    });
    expect(result.failures).toBe(5);
    expect(result.samples).toBeUndefined();
  });

  it('says what went wrong with a job, and takes the next one', async () => {
    await expect(
      generator.run({
        url,
        requests: [],
        rate: 100,
        seconds: 0.05,
        connections: 1,
        samples: false,
      }),
    ).rejects.toThrow('a fixed-rate job needs requests');
    const result = await generator.run({
      url,
      requests: [{ method: 'GET', path: '/ok' }],
      rate: 100,
      seconds: 0.05,
      connections: 1,
      samples: false,
    });
    expect(result.failures).toBe(0);
  });
});
