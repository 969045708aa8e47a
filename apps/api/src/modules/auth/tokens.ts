import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** Issuer of every access token this server signs. */
export const tokenIssuer = 'oficina-online';
/** Tokens are bound to one tenant: the audience names it, and so does the `tid` claim. */
export const tokenAudience = (tenantId: string): string => `tenant:${tenantId}`;

/** `sessionId` is the refresh family the token was issued for (claim `sid`): ending it ends them. */
export type AccessClaims = { customerId: string; tenantId: string; sessionId: string };

/** Verified tokens kept in memory (oldest evicted first): about 2 MB at most. */
const verifiedCacheSize = 10_000;

export type AccessTokenVerdict =
  { ok: true; claims: AccessClaims } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Access tokens: short-lived JWTs signed with HS256 and a key derived from the root secret. Only
 * this server signs and verifies them, so a symmetric key is enough; `algorithms` is pinned, so
 * `alg: none` and algorithm confusion are refused by jose before any claim is read.
 */
export function createAccessTokens(key: Uint8Array, ttlSeconds: number) {
  const verified = new Map<string, { tenantId: string; claims: AccessClaims; expiresAt: number }>();
  return {
    ttlSeconds,
    sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience(claims.tenantId))
        .setSubject(claims.customerId)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    async verify(token: string, tenantId: string): Promise<AccessTokenVerdict> {
      // A customer sends the same token for up to its whole life: verify it once, then answer
      // from a bounded cache keyed by the whole token (signature included, so a tampered token
      // never hits) until it expires. The bench showed jose's WebCrypto path at ~67 µs a call.
      // The cache holds only what the signature proves: whether the session was ended since is
      // asked on every call (revocations.ts, in requireCustomer), cached or not.
      const cached = verified.get(token);
      if (cached && cached.tenantId === tenantId) {
        if (cached.expiresAt > Date.now()) return { ok: true, claims: cached.claims };
        verified.delete(token);
        return { ok: false, reason: 'expired' };
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: tokenIssuer,
          audience: tokenAudience(tenantId),
          requiredClaims: ['sub', 'exp', 'iat', 'tid', 'sid'],
        });
        if (
          payload.tid !== tenantId ||
          typeof payload.sub !== 'string' ||
          typeof payload.sid !== 'string'
        )
          return { ok: false, reason: 'invalid' };
        const claims = { customerId: payload.sub, tenantId, sessionId: payload.sid };
        if (verified.size >= verifiedCacheSize) verified.delete(verified.keys().next().value ?? '');
        verified.set(token, { tenantId, claims, expiresAt: (payload.exp ?? 0) * 1000 });
        return { ok: true, claims };
      } catch (error) {
        return {
          ok: false,
          reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid',
        };
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** An opaque random token (refresh, reset): 256 bits, base64url. */
export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of an opaque token: its SHA-256, never the token. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * The XSRF double-submit token: a random nonce and its HMAC. The browser echoes the cookie in the
 * `X-XSRF-TOKEN` header; another site can neither read the cookie nor forge a signed value.
 */
export function createXsrf(key: Uint8Array) {
  const mac = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');
  return {
    issue(): string {
      const nonce = randomBytes(18).toString('base64url');
      return `${nonce}.${mac(nonce)}`;
    },
    verify(cookie: string | undefined, header: string | undefined): boolean {
      if (!cookie || !header || cookie.length > 200 || header.length > 200) return false;
      const a = Buffer.from(cookie);
      const b = Buffer.from(header);
      if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
      const [nonce, signature] = cookie.split('.');
      if (!nonce || !signature) return false;
      const expected = Buffer.from(mac(nonce));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
export type Xsrf = ReturnType<typeof createXsrf>;
