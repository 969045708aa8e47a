import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailMessages, type Language } from '../mail/messages.ts';
import { loadTenantMailInfo, tenantLogoUrl } from '../tenants/service.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * The sign-in link asked for on the sign-in screen, in the customer's language, with the tenant's
 * branding; built from the tenant's canonical URL. The link signs its holder in: it is never
 * logged, in any mode (in the demo it is read in the outbox).
 */
export function createSignInLinkMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    customer,
    token,
    minutes,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
    minutes: number;
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${appPaths.signInLink}?${new URLSearchParams({ token }).toString()}`;
    const lang = (customer.language in mailMessages ? customer.language : 'es') as Language;
    const m = mailMessages[lang];
    const expiry = m.signInLinkExpiry.replace('{minutes}', String(minutes));
    await mailer.send({
      from: tenant.mail_from || `${tenant.company_name} <no-reply@localhost>`,
      to: customer.email,
      subject: `${m.signInLinkSubject} · ${tenant.company_name}`,
      headers: { 'X-Portal-Mail': 'sign-in-link' },
      text: [
        m.signInLinkIntro,
        '',
        `${m.signInLinkButton}: ${url}`,
        '',
        expiry,
        m.signInLinkIgnore,
        '',
        m.footer,
      ].join('\n'),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: tenant.has_logo ? tenantLogoUrl(base, tenantId) : null,
        },
        {
          heading: m.signInLinkHeading,
          paragraphs: [m.signInLinkIntro, expiry, m.signInLinkIgnore],
          button: { label: m.signInLinkButton, url },
          footer: m.footer,
        },
      ),
    });
  };
}
