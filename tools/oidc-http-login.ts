/**
 * Walks an OpenID provider's development login and consent pages over plain HTTP, like a browser
 * would, until the provider sends the person back to `redirectUri` (by redirect, or by the
 * auto-submitted form of `form_post`). Answers the code and state it returns.
 */
export async function loginThroughProvider(authUrl: string, redirectUri: string, login: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), rest.join('='));
    }
  };
  let next: { url: string; method: 'GET' | 'POST'; body?: URLSearchParams } = {
    url: authUrl,
    method: 'GET',
  };
  for (let step = 0; step < 20; step++) {
    if (next.url.startsWith(redirectUri)) {
      const fields = next.body ?? new URL(next.url).searchParams;
      return {
        code: fields.get('code') ?? '',
        state: fields.get('state') ?? '',
        ...(fields.get('iss') ? { iss: fields.get('iss') ?? '' } : {}),
      };
    }
    const res = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(next.body ? { body: next.body.toString() } : {}),
    });
    keep(res);
    const location = res.headers.get('location');
    if (location) {
      next = { url: new URL(location, next.url).href, method: 'GET' };
      continue;
    }
    const html = await res.text();
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form at ${next.url} (${res.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input[^>]*>/gi)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
      if (name) fields.set(name, value.replace(/&amp;/g, '&'));
    }
    if (fields.has('login')) {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    next = {
      url: new URL((form[1] ?? '').replace(/&amp;/g, '&'), next.url).href,
      method: 'POST',
      body: fields,
    };
  }
  throw new Error('the provider never sent the person back');
}
