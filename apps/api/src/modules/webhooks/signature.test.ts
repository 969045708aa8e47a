import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './signature.ts';

const secret = 'whsec_test-secret';
const body = '{"id":"e1","type":"ping","data":{}}';
const t = 1_800_000_000;

describe('webhook signatures', () => {
  it('signs t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const header = signWebhook({ secret, body, timestamp: t });
    const hex = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${hex}`);
  });

  it('verifies its own signature within the tolerance', () => {
    const header = signWebhook({ secret, body, timestamp: t });
    expect(verifyWebhookSignature({ secret, body, header, now: t })).toEqual({ ok: true });
    expect(verifyWebhookSignature({ secret, body, header, now: t + 300 })).toEqual({ ok: true });
    // Any of several v1 values may match (a receiver may see one per secret during a rotation).
    const two = `${header},v1=${'0'.repeat(64)}`;
    expect(verifyWebhookSignature({ secret, body, header: two, now: t }).ok).toBe(true);
  });

  it('refuses a tampered body, another secret and a changed timestamp', () => {
    const header = signWebhook({ secret, body, timestamp: t });
    const tampered = body.replace('ping', 'pong');
    expect(verifyWebhookSignature({ secret, body: tampered, header, now: t })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyWebhookSignature({ secret: 'whsec_other', body, header, now: t }).ok).toBe(false);
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(verifyWebhookSignature({ secret, body, header: moved, now: t })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses a timestamp older (or further ahead) than five minutes', () => {
    const header = signWebhook({ secret, body, timestamp: t });
    expect(verifyWebhookSignature({ secret, body, header, now: t + 301 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyWebhookSignature({ secret, body, header, now: t - 301 }).ok).toBe(false);
  });

  it('refuses malformed headers', () => {
    for (const header of [undefined, '', 'v1=abc', `t=${t}`, `t=x,v1=${'a'.repeat(64)}`]) {
      expect(verifyWebhookSignature({ secret, body, header, now: t })).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    const short = `t=${t},v1=abcd`;
    expect(verifyWebhookSignature({ secret, body, header: short, now: t }).ok).toBe(false);
  });
});
