import type { FastifyInstance } from 'fastify';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { passwordAdmission } from '../src/modules/auth/passwords.ts';
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

/**
 * For the races with a password check: parks the next password verification once it has answered
 * (wrapping the process-wide password gate), i.e. at the exact point any slow verification sits.
 * `isParked` resolves once it is parked; `release()` lets it go on; `restore()` (in a `finally`)
 * unwraps the gate and lets go of anything still parked.
 */
export function parkNextPasswordCheck() {
  const original = passwordAdmission.run.bind(passwordAdmission);
  let parked!: () => void;
  const isParked = new Promise<void>((resolve) => (parked = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  passwordAdmission.run = async <T>(task: () => Promise<T>, key?: string): Promise<T> => {
    const result = await original(task, key);
    if (armed) {
      armed = false;
      parked();
      await gate;
    }
    return result;
  };
  return {
    isParked,
    release,
    restore: () => {
      passwordAdmission.run = original;
      release();
    },
  };
}
