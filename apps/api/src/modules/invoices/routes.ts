import { apiPrefix, ErrorCode, routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoToApi, todayIso } from '../../lib/dates.ts';
import { route } from '../../lib/route.ts';
import { deriveKey } from '../../lib/secrets.ts';
import { createSignedTokens } from '../../lib/signed-token.ts';
import type { Language } from '../mail/messages.ts';
import { isPdfLanguage } from './pdf-messages.ts';
import { createInvoiceService } from './service.ts';

/** A PDF link works for five minutes: long enough to open, short enough not to be shared. */
const pdfLinkSeconds = 300;
const pdfPath = '/invoice/pdf/:token';

export default async function invoiceRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createInvoiceService(ctx.db, ctx.now);
  const signed = createSignedTokens(deriveKey(ctx.rootSecret, 'invoice-pdf'));
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });

  route(app, routes.invoices, ({ request, body }) => service.list(actorOf(request), body), auth);
  route(
    app,
    routes.invoiceSummary,
    ({ request, body }) => service.summary(actorOf(request), body),
    auth,
  );
  route(
    app,
    routes.invoice,
    async ({ request, body }) => ({
      invoice: await service.detail(actorOf(request), body.invoice_id),
    }),
    auth,
  );
  route(
    app,
    routes.relatedInvoices,
    ({ request, body }) => service.related(actorOf(request), body.invoice_id),
    auth,
  );
  route(app, routes.balance, ({ request }) => service.balance(actorOf(request)), auth);
  route(
    app,
    routes.payments,
    ({ request, body }) => service.payments(actorOf(request), body),
    auth,
  );

  route(
    app,
    routes.invoicePdf,
    async ({ request, body }) => {
      // Only an invoice of this customer gets a link (a foreign id is a 404 like a missing one).
      await service.ensureOwn(actorOf(request), body.invoice_id);
      const token = signed.sign(
        {
          t: request.tenant.id,
          c: request.customerId,
          i: body.invoice_id,
          ...(body.language ? { l: body.language } : {}),
        },
        pdfLinkSeconds,
      );
      return { url: `${apiPrefix(request.tenant.id)}/invoice/pdf/${token}` };
    },
    auth,
  );

  // The link itself: a GET a new tab can open without the bearer header, so outside the JSON table.
  app.get(pdfPath, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const claims = signed.verify<{ t: string; c: string; i: string; l?: Language }>(token);
    if (!claims || claims.t !== request.tenant.id) {
      throw new AppError(404, ErrorCode.notFound, 'Link expired or invalid');
    }
    const actor = { tenantId: claims.t, customerId: claims.c };
    const invoice = await service.detail(actor, claims.i);
    const parties = await service.pdfParties(actor);
    // ~1 ms a line of CPU: drawn on the heavy-work pool, never on the event loop (a 500-line
    // invoice held every other tenant's requests for ~0.5 s).
    const pdf = await ctx.heavyWork.renderInvoicePdf(request.tenant.id, {
      invoice,
      tenant: parties.tenant,
      customer: parties.customer,
      // The language the customer reads the portal in (the web app sends it), else the one stored.
      language: isPdfLanguage(claims.l)
        ? claims.l
        : isPdfLanguage(parties.customer.language)
          ? parties.customer.language
          : 'es',
      todayApi: isoToApi(todayIso(ctx.now())),
    });
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `inline; filename="${invoice.invoice_id.replace(/[^\w.-]/g, '_')}.pdf"`,
      )
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
