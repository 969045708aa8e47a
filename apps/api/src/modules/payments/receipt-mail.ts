import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import { formatEuros, paymentMessages } from './messages.ts';
import { findReceiptEmail, type AttemptRow } from './repository.ts';
import { issueSignInLinkFor } from '../auth/sign-in-links.ts';
import { appPaths } from '@portal/contract/app-paths';

/** How long the receipt's button signs the customer in (once): read the same day, usually. */
export const receiptLinkHours = 24;

/**
 * The receipt e-mail after a card, Bizum or PayPal payment, in the customer's language, with the tenant's branding.
 * Its button opens the invoice paid (or the payments, for several); sent to the address the
 * customer signs in with, and where the tenant offers it, the button is a sign-in link (issue 24).
 */
export function createReceiptMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    attempt,
    invoices,
  }: {
    tenantId: string;
    attempt: AttemptRow;
    invoices: string[];
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const to = await db.withTenant(tenantId, (sql) => findReceiptEmail(sql, attempt.customer_id));
    if (to === undefined) return;
    const lang = (attempt.language in paymentMessages ? attempt.language : 'es') as Language;
    const m = paymentMessages[lang];
    const base = tenant.canonical_url.replace(/\/$/, '');
    const date = new Intl.DateTimeFormat('es-ES', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: 'Europe/Madrid',
    }).format(new Date());
    const rows: [string, string][] = [
      [m.amount, formatEuros(attempt.amount_cents)],
      [m.invoices, invoices.join(', ')],
      [m.order, attempt.order_number],
      [m.date, date],
    ];
    const [only] = invoices.length === 1 ? invoices : [];
    const next = only ? appPaths.invoiceDetail.href(only) : appPaths.payments;
    const token = tenant.sign_in_link
      ? await issueSignInLinkFor(db, {
          tenantId,
          customerId: attempt.customer_id,
          to,
          next,
          minutes: receiptLinkHours * 60,
        })
      : undefined;
    const url = token
      ? `${base}${appPaths.signInLink}?${new URLSearchParams({ token }).toString()}`
      : `${base}${next}`;
    const label = only ? m.receiptButton : m.receiptButtonPayments;
    // How it was paid, as the receipt PDF says it: card, Bizum or PayPal.
    const intro =
      attempt.pay_method === 'bizum'
        ? m.receiptIntroBizum
        : attempt.pay_method === 'paypal'
          ? m.receiptIntroPaypal
          : m.receiptIntro;
    // The receipt PDF: the portal's documents page (a sign-in first), never a link that opens
    // the document by itself.
    const receiptUrl = `${base}${appPaths.documents}?${new URLSearchParams({ recibo: attempt.id }).toString()}`;
    const after = [...(token ? [m.receiptLinkNote] : []), `${m.receiptPdf}: ${receiptUrl}`];
    await mailer.send({
      from: senderOf(tenant),
      to,
      subject: `${m.receiptSubject} · ${tenant.company_name}`,
      text: [
        intro,
        '',
        ...rows.map(([k, v]) => `${k}: ${v}`),
        '',
        `${label}: ${url}`,
        ...after,
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
          heading: m.receiptHeading,
          paragraphs: [intro, ...rows.map(([k, v]) => `${k}: ${v}`), ...after],
          button: { label, url },
          footer: m.footer,
        },
      ),
    });
  };
}
