import type { FastifyInstance } from 'fastify';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';

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
