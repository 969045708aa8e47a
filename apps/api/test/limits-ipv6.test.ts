import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondEmail } from '../src/db/seed/demo.ts';
import { limits } from '../src/modules/auth/service.ts';
import { engines, openTestApp } from './engines.ts';

/**
 * The sign-in limits count an IPv6 client by its /64 (lib/limit-address.ts): one host holds a whole
 * /64 and can take a new address for every guess (session 33's review: it was never limited).
 */
describe.each(engines())('password guessing from one IPv6 /64 on $name', (engine) => {
  let app: FastifyInstance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' }));
  });
  afterAll(async () => close());

  const guess = (n: number, from: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: secondEmail, password: `Guess-${n}-xyz` },
      remoteAddress: from,
    });

  it('limits one host guessing a password from many addresses of its own /64', async () => {
    const [perPair] = limits.loginPerAccountAndIp;
    const attempts = perPair + 5;
    const statuses: number[] = [];
    for (let i = 0; i < attempts; i += 1) {
      // 2001:db8:1:2::/64, a new interface id each time (privacy addresses do the same).
      const from = `2001:db8:1:2::${(i + 1).toString(16)}`;
      statuses.push((await guess(i, from)).statusCode);
    }
    const refused = statuses.filter((s) => s === 429).length;
    // One IPv4 address is refused after `perPair` guesses; one /64 should be too.
    expect(refused, `statuses: ${JSON.stringify(statuses)}`).toBeGreaterThanOrEqual(
      attempts - perPair,
    );
  });
});
