import type { Database } from '../../db/database.ts';
import { createAuthRepository } from '../auth/repository.ts';
import { hashToken, newOpaqueToken } from '../auth/tokens.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import { invitationTexts } from './messages.ts';
import { createIngestionRepository, type ClaimedInvitation } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/** An invitation link lasts longer than a reset link: the customer did not ask for it. */
export const invitationTokenDays = 7;

export type InvitationSenderOptions = {
  db: Database;
  mailer: Mailer;
  log?: { error: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void };
  /** Invitations claimed per transaction. */
  batchSize?: number;
  /** A claimed invitation is not claimed again for this long (the time to send it). */
  leaseSeconds?: number;
  /** First retry after a failed send; each next one waits twice as long, up to `retryMaxSeconds`. */
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  /** After this many failed sends the invitation is kept as `failed` (with its last error). */
  maxAttempts?: number;
};

/** Seconds to wait after the `attempts`-th failure: base, 2 x base, 4 x base... capped. */
export function retryDelaySeconds(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

type Ready = ClaimedInvitation & { token: string };

/**
 * The outbox of `customer_invitations` (migration 006): each due invitation is claimed (SKIP
 * LOCKED, so several API instances never send one twice at once), gets a single-use token stored
 * hashed in `password_resets` exactly like a password reset, and is e-mailed with a link to the
 * reset screen, where the customer chooses a password. A failed send is retried with backoff; a
 * crash after claiming leaves the invitation to be claimed again when its lease ends.
 */
export function createInvitationSender({
  db,
  mailer,
  log,
  batchSize = 50,
  leaseSeconds = 300,
  retryBaseSeconds = 60,
  retryMaxSeconds = 6 * 3600,
  maxAttempts = 20,
}: InvitationSenderOptions) {
  const auth = createAuthRepository();
  const repository = createIngestionRepository();

  async function finish(
    tenantId: string,
    customerId: string,
    outcome: { ok: true; note?: string } | { ok: false; error: string; attempts: number },
  ) {
    await db.withTenant(tenantId, (sql) =>
      outcome.ok
        ? repository.markInvitationSent(sql, customerId, outcome.note ?? null)
        : repository.markInvitationFailed(sql, {
            customerId,
            error: outcome.error.slice(0, 500),
            maxAttempts,
            retrySeconds: retryDelaySeconds(outcome.attempts, retryBaseSeconds, retryMaxSeconds),
          }),
    );
  }

  async function send(tenantId: string, invitation: Ready) {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${appPaths.resetPassword}?${new URLSearchParams({
      token: invitation.token,
      email: invitation.email,
    }).toString()}`;
    const m = invitationTexts(invitation.language, {
      company: tenant.company_name,
      days: invitationTokenDays,
    });
    await mailer.send({
      from: senderOf(tenant),
      to: invitation.email,
      subject: m.subject,
      text: [
        m.intro,
        '',
        m.action,
        `${m.button}: ${url}`,
        '',
        m.expiry,
        m.ignore,
        '',
        m.footer,
      ].join('\n'),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: mailLogoUrl(base, tenantId, tenant),
        },
        {
          heading: m.heading,
          paragraphs: [m.intro, m.action, m.expiry, m.ignore],
          button: { label: m.button, url },
          footer: m.footer,
        },
      ),
    });
  }

  /** Sends what is due for one tenant; answers how many e-mails went out. */
  async function sendTenant(tenantId: string): Promise<number> {
    let sent = 0;
    for (;;) {
      const { ready, done } = await db.withTenant(tenantId, async (sql) => {
        const claimed = await repository.claimInvitations(sql, { batchSize, leaseSeconds });
        const expiresAt = new Date(Date.now() + invitationTokenDays * 86_400_000);
        const ready: Ready[] = [];
        for (const c of claimed.filter((c) => !c.has_password)) {
          const token = newOpaqueToken();
          await auth.insertReset(sql, {
            customerId: c.customer_id,
            email: c.email,
            tokenHash: hashToken(token),
            expiresAt,
          });
          ready.push({ ...c, token });
        }
        return { ready, done: claimed.filter((c) => c.has_password) };
      });
      // Someone who already chose a password (a reset, an external sign-in) needs no invitation.
      for (const c of done)
        await finish(tenantId, c.customer_id, { ok: true, note: 'password already set' });
      for (const invitation of ready) {
        try {
          await send(tenantId, invitation);
          await finish(tenantId, invitation.customer_id, { ok: true });
          sent += 1;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log?.error({ tenantId, err: message }, 'invitation e-mail failed; will retry');
          await finish(tenantId, invitation.customer_id, {
            ok: false,
            error: message,
            attempts: invitation.attempts,
          });
        }
      }
      if (ready.length + done.length < batchSize) return sent;
    }
  }

  return {
    sendTenant,
    /** Sends every due invitation of every tenant; answers how many e-mails went out. */
    async sendDue(): Promise<number> {
      // Listing the tenants with due work is the only cross-tenant read; the rest runs under RLS.
      const tenants = await db.withOwner((sql) => repository.tenantsWithDueInvitations(sql));
      let sent = 0;
      for (const tenantId of tenants) sent += await sendTenant(tenantId);
      return sent;
    },
  };
}
