import type { FastifyInstance } from 'fastify';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { openTestApp, type Engine, type TestApp } from './engines.ts';

/** Signs a demo customer in through the API and answers a helper for authenticated calls. */
export async function signedIn(
  app: FastifyInstance,
  tenant: string,
  email = demoEmail,
  password = demoPassword,
) {
  const res = await app.inject({
    method: 'POST',
    url: `/${tenant}/api/1.0/login`,
    payload: { email, password },
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const { access_token: token, user } = res.json<{
    access_token: string;
    user: { id: string; code: string };
  }>();
  const call = (method: 'GET' | 'POST', path: string, payload?: object) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0${path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  return {
    token,
    user,
    post: (path: string, payload: object) => call('POST', path, payload),
    get: (path: string) => call('GET', path),
  };
}

/** `openTestApp` with the demo customer signed in. */
export type SignedInApp = TestApp & { me: Awaited<ReturnType<typeof signedIn>> };

/**
 * `openTestApp` (the seeded database's private copy and the app on it) with the demo tenant's demo
 * customer signed in: what the tests of one customer's own calls start from.
 */
export async function openSignedInApp(
  engine: Engine,
  overrides: Record<string, string> = {},
): Promise<SignedInApp> {
  const opened = await openTestApp(engine, overrides);
  try {
    return { ...opened, me: await signedIn(opened.app, 'demo') };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
