import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a webhook POST, Stripe's scheme: `x-portal-signature: t=<unix seconds>,v1=<hex>`
 * where the hex is HMAC-SHA256 keyed with the endpoint's secret (the whole `whsec_...` string) over
 * `<t>.<raw body>`. The timestamp is signed with the body, so a captured request cannot be replayed
 * later than the receiver's tolerance.
 */
export const signatureHeader = 'x-portal-signature';

/** How old (or how far ahead) a signed timestamp may be: five minutes. */
const defaultToleranceSeconds = 300;

const hmacHex = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');

/** The `x-portal-signature` value for `body` sent at `timestamp` (unix seconds, now by default). */
export function signWebhook(input: { secret: string; body: string; timestamp?: number }): string {
  const t = input.timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${t},v1=${hmacHex(input.secret, t, input.body)}`;
}

export type VerifyResult =
  { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * Checks a received signature: recomputes the HMAC over the raw body exactly as received, compares
 * in constant time with every `v1` of the header, and refuses a timestamp more than
 * `toleranceSeconds` away from now.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  header: string | undefined;
  toleranceSeconds?: number;
  /** Unix seconds; the clock by default. */
  now?: number;
}): VerifyResult {
  const parts = (input.header ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v ?? '');
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0)
    return { ok: false, reason: 'malformed' };
  const timestamp = Number(t);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? defaultToleranceSeconds)) {
    return { ok: false, reason: 'expired' };
  }
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.body), 'hex');
  const matches = signatures.some((hex) => {
    if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
    return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'mismatch' };
}
