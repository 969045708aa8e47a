import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { returnedDebitCheckinHref } from '../notifications/service.ts';
import { formatEuros } from '../payments/messages.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import { returnedDebitMessages, returnReasonText } from './messages.ts';
import type { CustomerMailRow } from './repository.ts';

export type ReturnedDebitMail = {
  to: CustomerMailRow;
  paymentId: string;
  invoiceId: string;
  amountCents: number;
  reasonCode: string;
  feeCents: number;
  feeCharged: boolean;
};

const isLanguage = (value: string): value is Language => value in returnedDebitMessages;

/**
 * The customer's e-mail about a returned direct debit, in their language with the tenant's
 * branding: the invoice, amount, reason in plain words and fee, and a button to the payment of
 * exactly that instalment (the same page as the notification's "Acceder"; sign-in first).
 */
export async function sendReturnedDebitMail(
  db: Database,
  mailer: Mailer,
  tenantId: string,
  mail: ReturnedDebitMail,
): Promise<void> {
  const tenant = await loadTenantMailInfo(db, tenantId);
  const lang = isLanguage(mail.to.language) ? mail.to.language : 'es';
  const m = returnedDebitMessages[lang];
  const base = tenant.canonical_url.replace(/\/$/, '');
  const url = `${base}${returnedDebitCheckinHref(mail.paymentId, mail.invoiceId)}`;
  const rows: string[] = [
    `${m.amount}: ${formatEuros(mail.amountCents)}`,
    `${m.reason}: ${returnReasonText(lang, mail.reasonCode)}`,
    ...(mail.feeCents > 0 ? [`${m.fee}: ${formatEuros(mail.feeCents)}`] : []),
  ];
  const paragraphs = [
    m.intro.replace('{invoice}', () => mail.invoiceId),
    ...rows,
    ...(mail.feeCharged ? [m.feeCharged] : []),
    m.payIntro,
  ];
  await mailer.send({
    from: senderOf(tenant),
    to: mail.to.email,
    subject: `${m.subject} · ${tenant.company_name}`,
    headers: { 'X-Portal-Mail': 'debit-returned' },
    text: [...paragraphs, '', `${m.button}: ${url}`, '', m.footer].join('\n'),
    html: brandedHtml(
      {
        companyName: tenant.company_name,
        color: tenant.primary_color,
        logoUrl: mailLogoUrl(base, tenantId, tenant),
      },
      { heading: m.heading, paragraphs, button: { label: m.button, url }, footer: m.footer },
    ),
  });
}
