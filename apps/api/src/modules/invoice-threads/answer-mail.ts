import { appPaths } from '@portal/contract/app-paths';
import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import { threadMailMessages } from './messages.ts';

/**
 * The e-mail that tells a customer the organisation answered their question about an invoice: in
 * the customer's language, with the tenant's branding and sender, its button opening the
 * conversation (after signing in). The answer itself stays in the portal: a mailbox is a weaker
 * place for what may be personal data.
 */
export function createAnswerMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    to,
    threadId,
    invoiceId,
  }: {
    tenantId: string;
    to: { email: string; language: string };
    threadId: string;
    invoiceId: string;
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const lang = (to.language in threadMailMessages ? to.language : 'es') as Language;
    const m = threadMailMessages[lang];
    const url = `${base}${appPaths.invoiceThread.href(threadId)}`;
    const intro = m.answerIntro.replace('{invoice}', () => invoiceId);
    await mailer.send({
      from: senderOf(tenant),
      to: to.email,
      subject: `${m.answerSubject.replace('{invoice}', () => invoiceId)} · ${tenant.company_name}`,
      headers: { 'X-Portal-Mail': 'invoice-thread-answer' },
      text: [intro, '', `${m.answerButton}: ${url}`, '', m.answerRead, '', m.footer].join('\n'),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: mailLogoUrl(base, tenantId, tenant),
        },
        {
          heading: m.answerHeading,
          paragraphs: [intro, m.answerRead],
          button: { label: m.answerButton, url },
          footer: m.footer,
        },
      ),
    });
  };
}
