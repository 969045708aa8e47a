import { ErrorCode, type TContactRequest } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { loadTenantMailInfo } from '../tenants/service.ts';
import { contactMessages } from './messages.ts';
import { createContactRepository } from './repository.ts';

/** Messages per customer and hour: enough for a person, not for a flood of the tenant's mailbox. */
const contactLimit = [5, 3600] as const;

type Log = { error: (obj: object, msg: string) => void };

export function createContactService(deps: { db: Database; mailer: Mailer; limiter: RateLimiter }) {
  const repository = createContactRepository();

  return {
    /**
     * Stores a customer's message, then e-mails it to the tenant's mailbox and a copy to the
     * customer. A failed e-mail is logged, not answered: the message is already stored.
     */
    async send(
      actor: { tenantId: string; customerId: string },
      body: Pick<TContactRequest, 'name' | 'company' | 'subject' | 'message'>,
      log: Log,
    ): Promise<{ id: string }> {
      const { tenantId, customerId } = actor;
      const verdict = await deps.limiter.hit(`contact:${tenantId}:${customerId}`, ...contactLimit);
      if (!verdict.allowed) {
        throw new AppError(429, ErrorCode.rateLimited, 'Too many messages', {
          'retry-after': String(verdict.retryAfterSeconds),
        });
      }
      const { id, customer } = await deps.db.withTenant(tenantId, async (sql) => ({
        id: await repository.insertMessage(sql, customerId, body),
        customer: await repository.findSender(sql, customerId),
      }));

      // Stored first, so nothing is lost if the mail server is down; the e-mails follow.
      const tenant = await loadTenantMailInfo(deps.db, tenantId);
      const from = senderOf(tenant);
      const lines = [
        `${body.name} (${body.company}) <${customer?.email ?? ''}>`,
        body.subject,
        '',
        body.message,
      ];
      const brand = {
        companyName: tenant.company_name,
        color: tenant.primary_color,
        logoUrl: null,
      };
      const sends: Promise<void>[] = [];
      const to = await deps.db.withTenant(tenantId, (sql) =>
        repository.findTenantMailbox(sql, tenantId),
      );
      if (to) {
        sends.push(
          deps.mailer.send({
            from,
            to,
            ...(customer?.email ? { replyTo: customer.email } : {}),
            subject: `[Oficina online] ${body.subject}`,
            text: lines.join('\n'),
            html: brandedHtml(brand, {
              heading: body.subject,
              paragraphs: lines.filter(Boolean),
              footer: '',
            }),
          }),
        );
      }
      if (customer?.email) {
        const m =
          contactMessages[
            (customer.language in contactMessages ? customer.language : 'es') as Language
          ];
        sends.push(
          deps.mailer.send({
            from,
            to: customer.email,
            subject: `${m.copySubject} · ${tenant.company_name}`,
            // Nothing the customer wrote, not even the subject: sent from the organisation's own
            // address and signed by its domain, a copy of any text (a 200-character subject holds
            // a phishing line and its link) was a way to have phishing signed by it and replayed
            // with its signature (sessions 36 and 37).
            text: [m.copyIntro, '', m.copyNote, '', m.footer].join('\n'),
            html: brandedHtml(brand, {
              heading: m.copySubject,
              paragraphs: [m.copyIntro, m.copyNote],
              footer: m.footer,
            }),
          }),
        );
      }
      const results = await Promise.allSettled(sends);
      for (const r of results)
        if (r.status === 'rejected') log.error({ err: r.reason }, 'contact e-mail failed');
      return { id };
    },
  };
}
