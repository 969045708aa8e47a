import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { createTenantService, logoPath, tenantLogoUrl } from './service.ts';

export default async function tenantRoutes(app: FastifyInstance) {
  const service = createTenantService(app.db);

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
