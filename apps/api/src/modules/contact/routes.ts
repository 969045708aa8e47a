import { ErrorCode, routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { loadTenantMailInfo } from '../auth/reset-mail.ts';
import { brandedHtml } from '../mail/layout.ts';
import type { Language } from '../mail/messages.ts';
import { contactMessages } from './messages.ts';

/** Messages per customer and hour: enough for a person, not for a flood of the tenant's mailbox. */
export const contactLimit = [5, 3600] as const;

export default async function contactRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    routes.contact,
    async ({ request, body }) => {
      const tenantId = request.tenant.id;
      const verdict = await ctx.limiter.hit(
        `contact:${tenantId}:${request.customerId}`,
        ...contactLimit,
      );
      if (!verdict.allowed) {
        throw new AppError(429, ErrorCode.rateLimited, 'Too many messages', {
          'retry-after': String(verdict.retryAfterSeconds),
        });
      }
      const { id, customer } = await ctx.db.withTenant(tenantId, async (sql) => {
        const [row] = await sql.query<{ id: string }>(
          `INSERT INTO contact_messages (tenant_id, customer_id, name, company, subject, message)
           VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5) RETURNING id`,
          [request.customerId, body.name, body.company, body.subject, body.message],
        );
        const [who] = await sql.query<{ email: string; language: string }>(
          `SELECT email, language FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
          [request.customerId],
        );
        return { id: row?.id ?? '', customer: who };
      });

      // Stored first, so nothing is lost if the mail server is down; the e-mails follow.
      const tenant = await loadTenantMailInfo(ctx.db, tenantId);
      const from = tenant.mail_from || `${tenant.company_name} <no-reply@localhost>`;
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
      const mailbox = await ctx.db.withTenant(tenantId, (sql) =>
        sql.query<{ contact_email: string }>('SELECT contact_email FROM tenants WHERE id = $1', [
          tenantId,
        ]),
      );
      const to = mailbox[0]?.contact_email;
      if (to) {
        sends.push(
          ctx.mailer.send({
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
          ctx.mailer.send({
            from,
            to: customer.email,
            subject: `${m.copySubject} · ${tenant.company_name}`,
            text: [m.copyIntro, '', ...lines, '', m.footer].join('\n'),
            html: brandedHtml(brand, {
              heading: m.copySubject,
              paragraphs: [m.copyIntro, ...lines.filter(Boolean)],
              footer: m.footer,
            }),
          }),
        );
      }
      const results = await Promise.allSettled(sends);
      for (const r of results)
        if (r.status === 'rejected') request.log.error({ err: r.reason }, 'contact e-mail failed');
      return { id, message: 'Message received' };
    },
    { preValidation: [ctx.requireCustomer] },
  );
}
