import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import { mailMessages, type Language } from '../mail/messages.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import type { CustomerAuthRow } from './repository.ts';

type Texts = (typeof mailMessages)[Language];

/** What one account e-mail says, from its texts in the customer's language. */
export type AccountMailContent = {
  subject: string;
  heading: string;
  /** The first is the lead; the button follows it in the plain-text version. */
  paragraphs: string[];
  /** Its URL is built from the tenant's canonical origin (never the request's Host). */
  button?: { label: string; path: string };
  /** `X-Portal-Mail`: names a notice for mail filters and tests. */
  kind?: string;
};

/**
 * Sends an e-mail about the customer's account (reset, password changed, new device, sign-in
 * link): in the customer's language, with the tenant's branding and sender, its link built from the
 * tenant's canonical URL. A link in it may sign its holder in: nothing here logs it.
 */
export async function sendAccountMail(
  db: Database,
  mailer: Mailer,
  tenantId: string,
  customer: Pick<CustomerAuthRow, 'email' | 'language'>,
  content: (m: Texts, lang: Language) => AccountMailContent,
): Promise<void> {
  const tenant = await loadTenantMailInfo(db, tenantId);
  const base = tenant.canonical_url.replace(/\/$/, '');
  const lang = (customer.language in mailMessages ? customer.language : 'es') as Language;
  const m = mailMessages[lang];
  const { subject, heading, paragraphs, button, kind } = content(m, lang);
  const url = button ? `${base}${button.path}` : undefined;
  const [lead = '', ...rest] = paragraphs;
  await mailer.send({
    from: senderOf(tenant),
    to: customer.email,
    subject: `${subject} · ${tenant.company_name}`,
    ...(kind ? { headers: { 'X-Portal-Mail': kind } } : {}),
    text: [
      lead,
      '',
      ...(button && url ? [`${button.label}: ${url}`, ''] : []),
      ...rest,
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
        heading,
        paragraphs,
        ...(button && url ? { button: { label: button.label, url } } : {}),
        footer: m.footer,
      },
    ),
  });
}
