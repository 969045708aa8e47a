import { ErrorCode, ZTenantId } from '@portal/contract';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.ts';
import { createTenantRepository, type TenantRow } from '../../modules/tenants/repository.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    tenant: TenantRow;
  }
}

const cacheMillis = 30_000;

/**
 * Resolves `/{tenant}/...` to its tenant row before anything else runs (so an unknown tenant is a
 * 404 whatever the body). Rows are cached briefly: branding changes show within 30 seconds.
 */
export default fp(
  async (app) => {
    const repository = createTenantRepository();
    const cache = new Map<string, { row: TenantRow | undefined; at: number }>();
    app.decorateRequest('tenant', null as unknown as TenantRow);
    app.addHook('onRequest', async (request, reply) => {
      // What the API answers is the customer's own (profile, cards, devices...): a browser keeps
      // none of it in its cache, where it outlived the sign-out on a shared computer. An answer
      // that may be kept says so itself (the branding: no-cache; the logo: public).
      void reply.header('cache-control', 'no-store');
      const params = request.params as { tenant?: unknown };
      if (params.tenant === undefined) return;
      const id = ZTenantId.safeParse(params.tenant);
      // Built only when thrown: capturing a stack on every request was measurable (bench/).
      const unknownTenant = () => new AppError(404, ErrorCode.tenantNotFound, 'Unknown tenant');
      if (!id.success) throw unknownTenant();
      const now = Date.now();
      let entry = cache.get(id.data);
      if (!entry || now - entry.at > cacheMillis) {
        const row = await app.db.readTenant(id.data, (sql) => repository.findTenant(sql, id.data));
        entry = { row, at: now };
        if (cache.size > 10_000) cache.clear();
        cache.set(id.data, entry);
      }
      if (!entry.row) throw unknownTenant();
      request.tenant = entry.row;
    });
  },
  { name: 'tenant', dependencies: ['db'] },
);
