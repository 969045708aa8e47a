import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailMessages, type Language } from '../mail/messages.ts';
import { loadTenantMailInfo, tenantLogoUrl } from '../tenants/service.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/** When it happened, as the customer reads it in their language, on Madrid's clock. */
export const whenIn = (lang: Language, at: Date): string =>
  new Intl.DateTimeFormat(`${lang}-ES`, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/Madrid',
  }).format(at);

/**
 * "Your password was changed", after a change from the profile: when, that the other devices were
 * signed out, and what to do if it was not the owner (the recovery page, which sends a reset link
 * to the owner's mailbox; this e-mail itself carries nothing that signs anyone in).
 */
export function createPasswordChangedMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    customer,
    at,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    at: Date;
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${appPaths.recoverPassword}`;
    const lang = (customer.language in mailMessages ? customer.language : 'es') as Language;
    const m = mailMessages[lang];
    const intro = m.changedIntro.replace('{when}', whenIn(lang, at));
    await mailer.send({
      from: tenant.mail_from || `${tenant.company_name} <no-reply@localhost>`,
      to: customer.email,
      subject: `${m.changedSubject} · ${tenant.company_name}`,
      text: [intro, '', m.changedIfNotYou, `${m.changedButton}: ${url}`, '', m.footer].join('\n'),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: tenant.has_logo ? tenantLogoUrl(base, tenantId) : null,
        },
        {
          heading: m.changedHeading,
          paragraphs: [intro, m.changedIfNotYou],
          button: { label: m.changedButton, url },
          footer: m.footer,
        },
      ),
    });
  };
}
