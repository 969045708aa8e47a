import { routes } from '@portal/contract';
import { signInMethodRoutes } from '@portal/contract/admin-sign-in';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { createTenantService, logoPath, tenantLogoUrl } from './service.ts';

export default async function tenantRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createTenantService(app.db);
  const auth = { onRequest: [ctx.requireApiKey] };

  // The provider turns sign-in methods on or off (issue 24); the tenant row is re-read by the
  // portal within 30 s (plugins/app/tenant.ts).
  route(
    app,
    signInMethodRoutes.getSignInMethods,
    ({ request }) => service.getSignInMethods(request.tenant.id),
    auth,
  );
  route(
    app,
    signInMethodRoutes.putSignInMethods,
    ({ request, body }) => service.putSignInMethods(request.tenant.id, body),
    auth,
  );

  route(app, routes.visualConfig, async ({ request, reply }) => {
    void reply.header('cache-control', 'no-cache');
    return service.getVisualConfig(request.tenant, tenantLogoUrl('', request.tenant.id));
  });

  // The logo is an image, not JSON: outside the contract's call table, documented here.
  app.get(logoPath, { schema: { hide: true } }, async (request, reply) => {
    const logo = await service.getLogo(request.tenant.id);
    if (!logo) throw notFound('Logo');
    return (
      reply
        .header('content-type', logo.mime)
        // The e-mails show it, and a mail client (webmail on its own origin) loads it from there:
        // the one answer that is not same-origin. Public and the same for everyone: no personal data.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'public, max-age=86400')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(Buffer.from(logo.data))
    );
  });
}
