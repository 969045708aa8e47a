import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { limits } from '../src/modules/auth/service.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * Before session 37: `TRUST_PROXY=true` is passed to Fastify as `trustProxy: true` (app.ts), which
 * trusts EVERY hop of `X-Forwarded-For`: `request.ip` is its left-most entry, the one the client
 * wrote. The proxies the README sends operators to ("`true` behind a reverse proxy / load
 * balancer") append the address they saw to what the client sent: nginx's
 * `$proxy_add_x_forwarded_for`, HAProxy's `option forwardfor`, AWS ALB, Traefik, Caddy. Only the
 * compose file's HAProxy replaces the header (`set-header`).
 *
 * Why it matters: behind such a proxy every per-address limit (sign-in 30/min, pair 10/15 min,
 * recovery, reset, the Redsys notification limit, the global RATE_LIMIT_PER_MINUTE) is keyed by
 * a value the attacker chooses per request: a new `X-Forwarded-For` is a new bucket, so the limits
 * never apply. The SEPA mandate's signature evidence (the "full client address") is forged too.
 *
 * Right behaviour: trust only the hop(s) the operator runs (`trustProxy: 1`, or a list/CIDR of the
 * proxies' addresses): the client's address is the one the proxy appended, the right-most entry.
 * One client behind the proxy, whatever it writes in `X-Forwarded-For`, is one bucket.
 */
describe.each(engines())('the client address behind a proxy that appends, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  // The reverse proxy (10.0.0.2) appends the address it saw, 203.0.113.9, to the header the client sent.
  const throughProxy = (spoofed: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: 'nobody@demo.test' },
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.9` },
    });

  it('keeps one client in one bucket whatever it writes in X-Forwarded-For', async () => {
    const [perIp] = limits.forgotPerIp;
    const statuses: number[] = [];
    for (let i = 0; i < perIp + 3; i += 1) {
      statuses.push((await throughProxy(`198.51.100.${i + 1}`)).statusCode);
    }
    // The first `perIp` are accepted, the rest refused: one client, one address.
    expect(statuses).toEqual([...Array<number>(perIp).fill(202), ...Array<number>(3).fill(429)]);
  });

  it('still reads the client of a proxy that replaces the header (deploy/haproxy.cfg)', async () => {
    // What the compose file's HAProxy sends: one address, the client's. Unaffected by the fix.
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: 'nobody@demo.test' },
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '192.0.2.77' },
    });
    expect(res.statusCode).toBe(202);
  });
});
