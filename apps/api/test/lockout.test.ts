import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { accountSlowdown, limits } from '../src/modules/auth/service.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { buildTestApp, engines, openTestApp, type TestApp } from './engines.ts';

const victim = secondEmail;
const ownerPassword = demoPassword;

describe.each(engines())(
  'an attacker who knows an e-mail cannot lock its owner out on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;

    beforeAll(async () => {
      db = await engine.open();
      smtp = await startSmtp();
      app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      await smtp.close();
    });

    let ip = 0;
    const newIp = () =>
      `10.${50 + Math.floor(++ip / 62_500)}.${Math.floor(ip / 250) % 250}.${ip % 250}`;
    const login = (password: string, from: string) =>
      app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: victim, password },
        remoteAddress: from,
      });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('lets the owner in from a new IP within seconds after 1,000 failed attempts from many IPs, and the reset link works', async () => {
      // 1,000 attempts: 200 addresses, five guesses each, eight addresses at a time.
      const statuses = new Map<number, number>();
      const addresses = Array.from({ length: 200 }, newIp);
      const t0 = Date.now();
      for (let i = 0; i < addresses.length; i += 8) {
        await Promise.all(
          addresses.slice(i, i + 8).map(async (from, k) => {
            for (const guess of ['a', 'b', 'c', 'd', 'e'].map((x) => `Guess-${i + k}-${x}`)) {
              const { statusCode } = await login(guess, from);
              statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
            }
          }),
        );
      }
      console.log(`1,000 attempts in ${Date.now() - t0} ms:`, Object.fromEntries(statuses));
      // Every guess failed (401), or was slowed down (429 to the same address); nothing else.
      expect([...statuses.keys()].sort()).toEqual([401, 429]);
      expect((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)).toBe(1000);

      // The owner, from an address of their own, with the right password: in at once.
      const started = Date.now();
      const owner = await login(ownerPassword, newIp());
      expect(owner.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);

      // After a typo from yet another address: a short, bounded wait, then in.
      const elsewhere = newIp();
      expect((await login('Typo-1234!', elsewhere)).statusCode).toBe(401);
      const slowed = await login(ownerPassword, elsewhere);
      expect(slowed.statusCode).toBe(429);
      const wait = Number(slowed.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(accountSlowdown.maxGapSeconds);
      await sleep(wait * 1000 + 100);
      expect((await login(ownerPassword, elsewhere)).statusCode).toBe(200);

      // The e-mailed reset link is never held back by the attack, and clears the slow-down.
      const forgot = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/forgot-password',
        payload: { email: victim },
        remoteAddress: newIp(),
      });
      expect(forgot.statusCode).toBe(202);
      const raw = (await smtp.waitFor(victim)).raw;
      const token = /reset-password\?token=([\w-]+)&/.exec(raw)?.[1];
      const resetFrom = newIp();
      const reset = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/reset-password',
        payload: {
          token,
          email: victim,
          password: 'Otra-Clave-Segura-77',
          password_confirmation: 'Otra-Clave-Segura-77',
        },
        remoteAddress: resetFrom,
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const another = newIp();
      expect((await login('Typo-again-1!', another)).statusCode).toBe(401);
      expect((await login('Otra-Clave-Segura-77', another)).statusCode).toBe(200);
    }, 180_000);

    it('still refuses one address that keeps guessing (per address and pair)', async () => {
      const from = newIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await login(`Wrong-${i}-pass`, from)).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
    });
  },
);

/**
 * SECURITY.md: sign-in attempts are refused per account+address, 10 per 15 minutes ("a botnet of
 * N addresses still gets 10 guesses per address"). The limiter keys the account by JavaScript's
 * `toLowerCase()` of the address as typed, but the account is found with PostgreSQL's `lower()`:
 * `clİente@demo.test` (a dotted capital I) is `cli̇ente@…` (i + U+0307) for JavaScript, a key of
 * its own, and `cliente@demo.test`, the demo customer, for PostgreSQL. Each `i` of an address
 * doubles the guesses one address gets (up to the per-address 30 a minute), and the account-wide
 * slow-down and the 5-an-hour caps of reset and sign-in-link e-mails split the same way.
 */
describe.each(engines())('the account+address limit and a dotted capital I on $name', (engine) => {
  let opened: TestApp;
  beforeAll(async () => {
    opened = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => opened.close());

  const from = '10.61.0.7';
  const login = (email: string, password: string) =>
    opened.app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email, password },
      remoteAddress: from,
    });

  it('takes no guess past the budget of one address, however the address is spelled', async () => {
    const [budget] = limits.loginPerAccountAndIp;
    for (let i = 0; i < budget; i++)
      expect((await login(demoEmail, `Wrong-guess-${i}`)).statusCode).toBe(401);
    expect((await login(demoEmail, demoPassword)).statusCode).toBe(429);

    const variant = demoEmail.replace('i', '\u0130');
    expect(variant).not.toBe(demoEmail);
    const res = await login(variant, demoPassword);
    // Session 39: 200, the customer signed in by the 12th guess from this address.
    expect(res.statusCode, res.body).toBe(429);
  });
});
