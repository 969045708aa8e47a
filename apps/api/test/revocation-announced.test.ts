import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { createAuthRepository } from '../src/modules/auth/repository.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * Each instance remembers the sessions it has checked and learns of ended ones from the
 * database's announcements (modules/auth/revocation-cache.ts): a bearer call no longer asks the
 * database every time, and an ended session is still refused at once everywhere.
 */
describe.each(engines())('ended sessions are announced to every instance on $name', (engine) => {
  let db: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let ip = 0;
  const rootSecret = randomBytes(32);

  beforeAll(async () => {
    db = await engine.open();
    a = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, rootSecret);
    b = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, rootSecret);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.close();
  });

  const signIn = async (app: FastifyInstance) => {
    ip += 1;
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: demoEmail, password: demoPassword },
      remoteAddress: `10.77.0.${ip}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ access_token: string; user: { id: string } }>();
    return {
      token: body.access_token,
      userId: body.user.id,
      sid: String(decodeJwt(body.access_token).sid),
    };
  };
  const status = async (app: FastifyInstance, s: { token: string; userId: string }) =>
    (
      await app.inject({
        method: 'GET',
        url: `/demo/api/1.0/user/profile/${s.userId}`,
        headers: { authorization: `Bearer ${s.token}` },
      })
    ).statusCode;
  /** Ends a session as no code path may: a bare UPDATE, announced to no one. */
  const endSilently = (sid: string) =>
    db.withOwner((sql) =>
      sql.query(`UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1`, [sid]),
    );

  it('answers a session it checked from memory, so only an announced ending reaches it', async () => {
    const silent = await signIn(a);
    expect(await status(b, silent)).toBe(200);
    await endSilently(silent.sid);
    // Not asked again: the instance remembers the session as open.
    expect(await status(b, silent)).toBe(200);

    // Ended through the repository (as a logout, a reset or the admin CLI would), outside both
    // instances: the announcement reaches each, and each refuses the token from then on.
    const s = await signIn(a);
    expect(await status(a, s)).toBe(200);
    expect(await status(b, s)).toBe(200);
    await db.withTenant('demo', (sql) => createAuthRepository().revokeAllOfCustomer(sql, s.userId));
    await expect.poll(() => status(b, s), { timeout: 2_000, interval: 5 }).toBe(401);
    await expect.poll(() => status(a, s), { timeout: 2_000, interval: 5 }).toBe(401);
  });

  it.runIf(engine.name === 'postgres')(
    'asks the database on every call while its listening connection is lost, and remembers again once it is back',
    async () => {
      const listeners = async () =>
        (
          await db.withOwner((sql) =>
            sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = 'portal-listen-portal_revocations'`,
            ),
          )
        )[0]?.n;
      await expect.poll(listeners).toBe(2);
      const s = await signIn(a);
      expect(await status(b, s)).toBe(200);
      await db.withOwner((sql) =>
        sql.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'portal-listen-portal_revocations'`,
        ),
      );
      // Ended while no one listens: missed by the announcements, read from the database.
      await endSilently(s.sid);
      await expect.poll(() => status(b, s), { timeout: 2_000, interval: 5 }).toBe(401);

      // Back (with back-off): checked once, then remembered again.
      await expect.poll(listeners, { timeout: 5_000 }).toBe(2);
      const later = await signIn(a);
      await expect
        .poll(
          async () => {
            const fresh = await signIn(a);
            expect(await status(b, fresh)).toBe(200);
            await endSilently(fresh.sid);
            return status(b, fresh);
          },
          { timeout: 5_000 },
        )
        .toBe(200);
      expect(await status(b, later)).toBe(200);
    },
  );
});
