import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedAddressError, type ResolveAll } from './address.ts';
import { postJson } from './transport.ts';

describe('webhook POST transport', () => {
  let server: Server;
  let port = 0;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      } else if (req.url === '/big') {
        res.writeHead(500).end('x'.repeat(1_000_000));
      } else if (req.url === '/silent') {
        // Never answers: the timeout ends the exchange.
      } else {
        res.writeHead(200).end(`ok ${req.headers.host}`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** DNS as an attacker controls it: the name answers 127.0.0.1; counts the questions. */
  const rebinding = () => {
    const asked: string[] = [];
    const resolveAll: ResolveAll = (hostname) => {
      asked.push(hostname);
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    return { asked, resolveAll };
  };
  const post = (url: string, options: Partial<Parameters<typeof postJson>[1]> = {}) =>
    postJson(url, {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 2000,
      maxTextLength: 500,
      targets: 'public-only',
      ...options,
    });

  it('refuses a name that resolves to a private address, on the lookup the socket uses', async () => {
    const dns = rebinding();
    const before = hits.length;
    const refused = await post(`https://hooks.example.com:${port}/hook`, {
      resolveAll: dns.resolveAll,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedAddressError);
    expect((refused as Error).message).toBe('refused: private address 127.0.0.1');
    // One question, the connection's own: no earlier check a changed answer could get past.
    expect(dns.asked).toEqual(['hooks.example.com']);
    expect(hits.length).toBe(before);
  });

  it('refuses a literal private address without connecting', async () => {
    const before = hits.length;
    await expect(post(`http://127.0.0.1:${port}/hook`)).rejects.toThrow(
      'refused: private address 127.0.0.1',
    );
    await expect(post(`http://[::ffff:127.0.0.1]:${port}/hook`)).rejects.toThrow(
      'refused: private address ::ffff:7f00:1',
    );
    expect(hits.length).toBe(before);
  });

  it('refuses plain http unless private targets are allowed (an http URL kept from then)', async () => {
    const dns = rebinding();
    const before = hits.length;
    await expect(
      post(`http://hooks.example.com:${port}/hook`, { resolveAll: dns.resolveAll }),
    ).rejects.toThrow('refused: plain http to a public address');
    expect(dns.asked).toEqual([]);
    expect(hits.length).toBe(before);
  });

  it('connects to the address the lookup answered when private targets are allowed', async () => {
    const dns = rebinding();
    const answer = await post(`http://hooks.example.com:${port}/hook`, {
      targets: 'any',
      resolveAll: dns.resolveAll,
    });
    expect(answer).toMatchObject({ status: 200, text: `ok hooks.example.com:${port}` });
    expect(await post(`http://127.0.0.1:${port}/hook`, { targets: 'any' })).toMatchObject({
      status: 200,
    });
  });

  it('does not follow redirects and reads only the start of an answer', async () => {
    const redirect = await post(`http://127.0.0.1:${port}/redirect`, { targets: 'any' });
    expect(redirect).toMatchObject({ status: 302, location: 'http://169.254.169.254/latest' });
    expect(hits.at(-1)).toBe('/redirect');
    const big = await post(`http://127.0.0.1:${port}/big`, { targets: 'any' });
    expect(big.status).toBe(500);
    expect(big.text.length).toBeGreaterThanOrEqual(500);
    expect(big.text.length).toBeLessThan(1_000_000);
  });

  it('gives up when the receiver does not answer within the timeout', async () => {
    const silent = await post(`http://127.0.0.1:${port}/silent`, {
      targets: 'any',
      timeoutMs: 100,
    }).catch((e: unknown) => e);
    expect((silent as Error).name).toMatch(/^(AbortError|TimeoutError)$/);
  });
});
