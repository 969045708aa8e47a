import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignedTokens } from './signed-token.ts';

describe('signed tokens', () => {
  const tokens = createSignedTokens(randomBytes(32));
  it('round-trips a payload until it expires', () => {
    const token = tokens.sign({ i: 'F2025-00001' }, 60, 1_000_000);
    expect(tokens.verify(token, 1_000_000)).toMatchObject({ i: 'F2025-00001' });
    expect(tokens.verify(token, 1_000_000 + 61_000)).toBeNull();
  });
  it('refuses a tampered payload, a forged signature and garbage', () => {
    const token = tokens.sign({ i: 'a' }, 60);
    const [, sig] = token.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ i: 'b', exp: 9e9 })).toString('base64url');
    expect(tokens.verify(`${forgedBody}.${sig}`)).toBeNull();
    expect(tokens.verify(createSignedTokens(randomBytes(32)).sign({ i: 'a' }, 60))).toBeNull();
    expect(tokens.verify('x')).toBeNull();
    expect(tokens.verify('x.y')).toBeNull();
  });
});
