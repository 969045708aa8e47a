import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailMessages, type Language } from '../mail/messages.ts';
import { loadTenantMailInfo, tenantLogoUrl } from '../tenants/service.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * The password-reset e-mail, in the customer's language, with the tenant's branding. The link is
 * built from the tenant's canonical URL, never from the request's Host header. The link is never
 * logged, in any mode: it signs its holder in. In the demo it is read in the outbox
 * (`DATA_DIR/outbox/*.eml`).
 */
export function createResetMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    customer,
    token,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${appPaths.resetPassword}?${new URLSearchParams({ token, email: customer.email }).toString()}`;
    const lang = (customer.language in mailMessages ? customer.language : 'es') as Language;
    const m = mailMessages[lang];
    const brand = {
      companyName: tenant.company_name,
      color: tenant.primary_color,
      logoUrl: tenant.has_logo ? tenantLogoUrl(base, tenantId) : null,
    };
    await mailer.send({
      from: tenant.mail_from || `${tenant.company_name} <no-reply@localhost>`,
      to: customer.email,
      subject: `${m.resetSubject} · ${tenant.company_name}`,
      text: [
        m.resetIntro,
        '',
        `${m.resetButton}: ${url}`,
        '',
        m.resetExpiry,
        m.resetIgnore,
        '',
        m.footer,
      ].join('\n'),
      html: brandedHtml(brand, {
        heading: m.resetHeading,
        paragraphs: [m.resetIntro, m.resetExpiry, m.resetIgnore],
        button: { label: m.resetButton, url },
        footer: m.footer,
      }),
    });
  };
}
