import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { configProblems } from '../src/production-checks.ts';

/**
 * README "Run in production": SMTP_URL is required (`smtp://` or `smtps://user:pass@host:port`):
 * "resets, invitations and receipts must reach inboxes". The refusal only asks that the variable
 * be non-empty and parse as a URL, so `smtp://` (or `smtp:///`), a URL with no host at all, starts a
 * production server whose mailer (nodemailer) then sends every reset and receipt to localhost.
 * So it was until session 36 (ops review); a URL with no host is refused now.
 */
const goodEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
  APP_SECRET: randomBytes(32).toString('base64'),
};

/** The refusal lines production starts with; a value refused while parsing counts as refused. */
function refusals(env: Record<string, string>): string[] {
  try {
    return configProblems(loadConfig(env));
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

describe('SMTP_URL in production', () => {
  it.each(['smtp://', 'smtp:///', 'smtps://'])('refuses %j, an SMTP URL with no host', (value) => {
    expect(refusals({ ...goodEnv, SMTP_URL: value }).join('\n')).toMatch(/SMTP_URL/);
  });
});
