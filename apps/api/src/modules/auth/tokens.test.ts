import { randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAccessTokens, createXsrf, tokenAudience, tokenIssuer } from './tokens.ts';

const key = randomBytes(32);
const tokens = createAccessTokens(key, 900);

describe('access tokens', () => {
  it('round-trips the customer and tenant', async () => {
    const token = await tokens.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' });
    expect(await tokens.verify(token, 'demo')).toEqual({
      ok: true,
      claims: { customerId: 'c1', tenantId: 'demo', sessionId: 's1' },
    });
  });

  it('refuses a token of tenant A on tenant B', async () => {
    const token = await tokens.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' });
    expect(await tokens.verify(token, '1')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('tells an expired token from an invalid one', async () => {
    const expired = await new SignJWT({ tid: 'demo', sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience('demo'))
      .setSubject('c1')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
      .sign(key);
    expect(await tokens.verify(expired, 'demo')).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    [
      'alg none',
      new UnsecuredJWT({ tid: 'demo', sub: 'c1' })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience('demo'))
        .setIssuedAt()
        .setExpirationTime('5m')
        .encode(),
    ],
  ])('refuses %s', async (_name, token) => {
    expect(await tokens.verify(token, 'demo')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses another key, another issuer, a tampered payload and garbage', async () => {
    const other = createAccessTokens(randomBytes(32), 900);
    expect(
      (
        await tokens.verify(
          await other.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' }),
          'demo',
        )
      ).ok,
    ).toBe(false);
    const wrongIssuer = await new SignJWT({ tid: 'demo' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('someone-else')
      .setAudience(tokenAudience('demo'))
      .setSubject('c1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    expect((await tokens.verify(wrongIssuer, 'demo')).ok).toBe(false);
    const good = await tokens.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' });
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'c2' })).toString('base64url')}.${s}`;
    expect((await tokens.verify(tampered, 'demo')).ok).toBe(false);
    expect((await tokens.verify('not.a.jwt', 'demo')).ok).toBe(false);
  });
});

describe('the verified-token cache', () => {
  it('answers a verified token again without losing the tenant or expiry checks', async () => {
    const short = createAccessTokens(key, 1);
    const token = await short.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' });
    expect((await short.verify(token, 'demo')).ok).toBe(true);
    expect((await short.verify(token, 'demo')).ok).toBe(true);
    // The cached entry is bound to its tenant...
    expect(await short.verify(token, '1')).toEqual({ ok: false, reason: 'invalid' });
    // ...and to its expiry.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await short.verify(token, 'demo')).toEqual({ ok: false, reason: 'expired' });
  });

  it('never answers a tampered token from the cache', async () => {
    const token = await tokens.sign({ customerId: 'c1', tenantId: 'demo', sessionId: 's1' });
    expect((await tokens.verify(token, 'demo')).ok).toBe(true);
    expect((await tokens.verify(`${token.slice(0, -2)}xx`, 'demo')).ok).toBe(false);
  });
});

describe('XSRF double submit', () => {
  const xsrf = createXsrf(key);
  it('accepts the cookie echoed in the header', () => {
    const value = xsrf.issue();
    expect(xsrf.verify(value, value)).toBe(true);
  });
  it('refuses a missing, different or forged value', () => {
    const value = xsrf.issue();
    expect(xsrf.verify(value, undefined)).toBe(false);
    expect(xsrf.verify(value, xsrf.issue())).toBe(false);
    expect(xsrf.verify('abc.def', 'abc.def')).toBe(false);
    expect(createXsrf(randomBytes(32)).verify(value, value)).toBe(false);
  });
});
