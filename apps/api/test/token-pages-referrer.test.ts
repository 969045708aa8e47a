/**
 * Review (web, tokens in URLs): the server sends `Referrer-Policy: no-referrer` only with
 * /reset-password, "its URL carries the token: nothing it loads or links to gets a Referer"
 * (plugins/external/web.ts, SECURITY.md "Headers"). Three other pages are opened from an e-mail
 * with a live token in their query, and none of them spends it on opening (a mail scanner must not):
 *
 * - /sign-in-link?token=… signs the customer in with one press; the receipt e-mail carries such a
 *   link valid for hours (modules/payments/receipt-mail.ts, `receiptLinkHours`);
 * - /confirm-email?token=… confirms a change of the sign-in e-mail;
 * - /end-session?token=… ends a session.
 *
 * Served with the default `strict-origin-when-cross-origin`, every request such a page makes while
 * it waits for the press (its JS chunks, CSS, the manifest, the logo, `GET /visual-config` …)
 * carries `Referer: https://<portal>/sign-in-link?token=<live token>`: the token reaches every log
 * on the way that records the Referer (a CDN, a proxy in combined log format), which the app's own
 * redaction of request lines (lib/log-redaction.ts) never sees.
 *
 * Should: the same `no-referrer` as the reset page, on each page whose address carries a token.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

describe.each(engines())('pages whose address carries a token on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let webDist: string;

  beforeAll(async () => {
    db = await engine.open();
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Oficina</title>');
    app = await buildTestApp(db, { PUBLIC_URL: 'https://portal.example', WEB_DIST: webDist });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it.each([
    ['the e-mailed sign-in link', '/sign-in-link?token=live-sign-in-token'],
    ['the e-mail change confirmation', '/confirm-email?token=live-email-change-token'],
    ['the "was this you?" end-session link', '/end-session?token=live-end-session-token'],
  ])('sends Referrer-Policy: no-referrer with %s, as with the reset page', async (_what, url) => {
    // The reset page, for comparison: what the project promises for a token in the address.
    const reset = await app.inject({ method: 'GET', url: '/reset-password?token=t&email=a%40b.c' });
    expect(reset.headers['referrer-policy']).toBe('no-referrer');

    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    expect(res.body).toContain('<title>Oficina</title>');
    expect(res.headers['referrer-policy'], url).toBe('no-referrer');
  });
});
