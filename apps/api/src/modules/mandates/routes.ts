import { apiPrefix, ErrorCode, routes } from '@portal/contract';
import { isLanguage, type TLanguage } from '@portal/contract/languages';
import { sepaMandateAdminRoutes } from '@portal/contract/sepa-mandates';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { deriveKey } from '../../lib/secrets.ts';
import { createSignedTokens } from '../../lib/signed-token.ts';
import { createMandateService } from './service.ts';

/** A PDF link works for five minutes, like an invoice's: long enough to open, not to share. */
const pdfLinkSeconds = 300;

export default async function mandateRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createMandateService(ctx.db);
  const signed = createSignedTokens(deriveKey(ctx.rootSecret, 'sepa-mandate-pdf'));
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });

  route(app, routes.sepaMandates, ({ request }) => service.list(actorOf(request)), auth);

  route(
    app,
    routes.sepaMandatePdf,
    async ({ request, params, body }) => {
      // Only a mandate of this customer gets a link (a foreign id is a 404 like a missing one).
      const mandate = await service.own(actorOf(request), params.id);
      const token = signed.sign(
        {
          t: request.tenant.id,
          c: request.customerId,
          m: mandate.id,
          ...(body.language ? { l: body.language } : {}),
        },
        pdfLinkSeconds,
      );
      return { url: `${apiPrefix(request.tenant.id)}/sepa-mandates/pdf/${token}` };
    },
    auth,
  );

  // The link itself: a GET a new tab can open without the bearer header, so outside the JSON table.
  app.get('/sepa-mandates/pdf/:token', { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const claims = signed.verify<{ t: string; c: string; m: string; l?: TLanguage }>(token);
    if (!claims || claims.t !== request.tenant.id) {
      throw new AppError(404, ErrorCode.notFound, 'Link expired or invalid');
    }
    const { input, reference } = await service.pdfInput(
      { tenantId: claims.t, customerId: claims.c },
      claims.m,
      isLanguage(claims.l) ? claims.l : undefined,
    );
    // Drawn on the heavy-work pool, never on the event loop (like the invoice PDF).
    const pdf = await ctx.heavyWork.renderMandatePdf(request.tenant.id, input);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${reference.replace(/[^\w.-]/g, '_')}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  // The provider's integration API (tenant API key): every mandate, with its evidence.
  route(
    app,
    sepaMandateAdminRoutes.listSepaMandates,
    ({ request, query }) => service.listForProvider(request.tenant.id, query),
    { onRequest: [ctx.requireApiKey] },
  );
}
