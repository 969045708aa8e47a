import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A small signed, expiring token for links that must work without the bearer header (a PDF opened
 * in a new tab): base64url JSON plus an HMAC-SHA256 of it.
 */
export function createSignedTokens(key: Uint8Array) {
  const mac = (data: string) => createHmac('sha256', key).update(data).digest('base64url');
  return {
    sign(payload: Record<string, string | number>, ttlSeconds: number, now = Date.now()): string {
      const body = Buffer.from(
        JSON.stringify({ ...payload, exp: Math.floor(now / 1000) + ttlSeconds }),
      ).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    verify<T extends Record<string, unknown>>(token: string, now = Date.now()): T | null {
      if (token.length > 2048) return null;
      const [body, signature] = token.split('.');
      if (!body || !signature) return null;
      const expected = Buffer.from(mac(body));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & {
          exp?: unknown;
        };
        if (typeof payload.exp !== 'number' || payload.exp * 1000 < now) return null;
        return payload;
      } catch {
        return null;
      }
    },
  };
}
