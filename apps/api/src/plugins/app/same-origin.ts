import { ErrorCode } from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.ts';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a browser's own page sends; `none` is a request the user typed or bookmarked. */
const sameOriginSites = new Set(['same-origin', 'none']);

export type SameOriginOptions = {
  /** Origins allowed besides each tenant's canonical one (`ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
  /**
   * Routes (their Fastify URL) that receive forms by protocol and are protected by their own
   * signature: the Redsys notification. They keep their content types and need no Origin.
   */
  formRoutes: readonly string[];
};

/** The media type of a `content-type` header, lower case, without parameters. */
function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(';', 1)[0]?.trim().toLowerCase();
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/**
 * Login CSRF and every other cross-site write, refused in one place, before any work: every
 * state-changing call under `/{tenant}/api/1.0` takes only JSON (a cross-site HTML form can send
 * urlencoded, multipart or text/plain, never JSON without a CORS preflight, which this API does not
 * answer) and, from a browser, only from the tenant's own origin. A browser always sends `Origin`
 * on a POST (and `Sec-Fetch-Site` since 2020-2023); a request with neither is not a browser's (a
 * server-to-server client, the provider's API-key calls) and cannot carry a victim's cookies.
 */
export default fp<SameOriginOptions>(
  async (app, { allowedOrigins, formRoutes }) => {
    const formRouteSet = new Set(formRoutes);
    app.addHook('onRequest', async (request) => {
      if (!stateChanging.has(request.method)) return;
      if (formRouteSet.has(request.routeOptions.url ?? '')) return;

      const origin = request.headers.origin;
      const site = request.headers['sec-fetch-site'];
      if (origin !== undefined) {
        // request.tenant is set by the tenant plugin's hook, registered before this one.
        const own = new URL(request.tenant.canonical_url).origin;
        if (origin !== own && !allowedOrigins.includes(origin)) {
          throw new AppError(403, ErrorCode.forbidden, 'Cross-origin request refused');
        }
      } else if (typeof site === 'string' && !sameOriginSites.has(site)) {
        throw new AppError(403, ErrorCode.forbidden, 'Cross-site request refused');
      }

      const type = mediaTypeOf(request.headers['content-type']);
      if ((type !== undefined || hasBody(request)) && type !== 'application/json') {
        throw new AppError(415, ErrorCode.unsupportedMediaType, 'Unsupported media type');
      }
    });
  },
  { name: 'same-origin', dependencies: ['tenant'] },
);
