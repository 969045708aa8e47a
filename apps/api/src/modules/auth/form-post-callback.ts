import { ZSignInProvider } from '@portal/contract';
import { appPaths } from '@portal/contract/app-paths';
import type { FastifyInstance } from 'fastify';

/**
 * Apple answers with `response_mode=form_post`: a cross-site POST to the web app's callback page,
 * which carries no SameSite cookie and which a single-page app cannot read. The server turns it
 * into a top-level GET of the same page (303), where the state cookie is sent and the app reads
 * the code and state from the query.
 */
export default async function formPostCallback(app: FastifyInstance) {
  app.post(appPaths.authCallback.pattern, { schema: { hide: true } }, async (request, reply) => {
    const provider = ZSignInProvider.safeParse((request.params as { provider: string }).provider);
    if (!provider.success) return reply.callNotFound();
    const body = (request.body ?? {}) as Record<string, unknown>;
    const query = new URLSearchParams();
    for (const key of ['code', 'state', 'iss', 'error']) {
      const value = body[key];
      if (typeof value === 'string' && value.length <= 4096) query.set(key, value);
    }
    return reply.redirect(`${appPaths.authCallback.href(provider.data)}?${query.toString()}`, 303);
  });
}
