import { ErrorCode, ZTenantId } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { tenantFromHostname } from './host.ts';
import { createTenantRepository, type TenantRow } from './repository.ts';

const manifestPath = '/manifest.webmanifest';

/** The icons of the built web app (apps/web/public/icons), the same for every tenant. */
const icons = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

/** The page background of the light theme (Tailwind gray-50, index.css): the splash screen's. */
const backgroundColor = '#f9fafb';

/** The web app manifest of a tenant: its name and primary colour, the portal's icons. */
function buildManifest(tenant: TenantRow) {
  return {
    id: '/',
    name: tenant.company_name,
    short_name: tenant.company_name,
    description: tenant.description,
    lang: 'es',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: backgroundColor,
    theme_color: `#${tenant.primary_color.replace(/^#/, '')}`,
    icons,
  };
}

/**
 * `GET /manifest.webmanifest` (linked from the web app's index.html). The web app's files are the
 * same for every tenant and carry no tenant in their path, so this one takes it from the host
 * name, as the web app does. An unknown tenant is a 404 as everywhere.
 */
export default async function manifestRoutes(app: FastifyInstance) {
  const repository = createTenantRepository();
  app.get(manifestPath, { schema: { hide: true } }, async (request, reply) => {
    const id = ZTenantId.safeParse(tenantFromHostname(request.hostname));
    const tenant = id.success
      ? await app.db.withTenant(id.data, (sql) => repository.findTenant(sql, id.data))
      : undefined;
    if (!tenant) throw new AppError(404, ErrorCode.tenantNotFound, 'Unknown tenant');
    return (
      reply
        .header('content-type', 'application/manifest+json; charset=utf-8')
        // Branding may change: the browser revalidates, as it does for index.html.
        .header('cache-control', 'no-cache')
        .send(JSON.stringify(buildManifest(tenant)))
    );
  });
}
