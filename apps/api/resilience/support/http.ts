/**
 * One HTTP exchange with a deadline. A request that gets no answer in `timeoutMs` is reported as
 * `error: 'timeout'` (a hang), one whose connection fails as the network error: status 0 for both.
 */
export type Answer = {
  status: number;
  ms: number;
  body: string;
  headers: Headers;
  error?: string;
};

export async function send(
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  const { timeoutMs = 10_000, ...rest } = init;
  try {
    const res = await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - started, body, headers: res.headers };
  } catch (error) {
    const name = (error as { name?: string }).name;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      ms: performance.now() - started,
      body: '',
      headers: new Headers(),
      error:
        name === 'TimeoutError' || name === 'AbortError'
          ? 'timeout'
          : (cause?.code ?? cause?.message ?? String(error)),
    };
  }
}

export const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** An error answer must be the documented JSON body: a code, a message, nothing internal. */
export function isCleanError(answer: Answer): boolean {
  try {
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    return (
      typeof body.code === 'string' &&
      typeof body.message === 'string' &&
      !/\bat [\w.<>]+ \(|node_modules|stack|SELECT |INSERT |ECONN|terminat/i.test(answer.body)
    );
  } catch {
    return false;
  }
}

/** Signs in through the API over HTTP; answers the bearer token. */
export async function signIn(
  baseUrl: string,
  tenant: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const answer = await send(`${baseUrl}/${tenant}/api/1.0/login`, {
    ...json({ email, password }),
    headers: { 'content-type': 'application/json', ...headers },
    timeoutMs: 30_000,
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

/** A JSON call with the bearer token. */
export function authed(baseUrl: string, tenant: string, token: string) {
  return (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    timeoutMs = 10_000,
  ): Promise<Answer> =>
    send(`${baseUrl}/${tenant}/api/1.0${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs,
    });
}
