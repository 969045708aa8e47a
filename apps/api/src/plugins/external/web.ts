import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@portal/contract';
import { appPaths } from '@portal/contract/app-paths';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createLoginPage,
  type LoginPage,
  loadLoginPrerenderer,
  readLoginEntry,
  readTemplate,
} from '../../modules/tenants/login-page.ts';
import { createHostTenantCheck, unknownPortalPage } from '../../modules/tenants/unknown-portal.ts';

/** `/{tenant}/api/...`: everything else that is not a file is a route of the single-page app. */
export const isApiPath = (url: string): boolean => /^\/[^/?#]+\/api(\/|$|\?)/.test(url);

/** `url` is the page `path`, or that page followed by one of the characters of `next`. */
const isPage = (url: string, path: string, next: string): boolean =>
  url === path || (url.startsWith(path) && next.includes(url.charAt(path.length)));

/** The pages opened from an e-mail with a live token in their query. */
const tokenPages = [
  appPaths.resetPassword,
  appPaths.signInLink,
  appPaths.confirmEmail,
  appPaths.endSessionLink,
];

/** `/login`, with or without a query: the one page the server renders (issue 6). */
const isLoginPath = (url: string): boolean => isPage(url, appPaths.login, '?');

/**
 * Serves the built web app: hashed assets cached for a year (their name changes with their
 * content), everything else revalidated, precompressed brotli/gzip copies when the browser takes
 * them, and `index.html` for every path of the app (SPA fallback). `/login` comes already
 * rendered, in the tenant's branding and the visitor's language, when the app's server build is
 * there (modules/tenants/login-page.ts).
 */
export default fp<{ root: string }>(
  async (app, { root }) => {
    const built = existsSync(join(root, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root,
        preCompressed: true,
        index: false,
        cacheControl: false,
        setHeaders(reply, path) {
          void reply.header(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    const template = built ? readTemplate(root) : null;
    // The web app's server build (React's server renderer and the sign-in form, ~100 ms to load
    // here) loads while the rest of the server starts, not before it: the API is ready without it,
    // and a /login that comes first waits for it. One that cannot be loaded costs /login its
    // prerendering, never the server's start.
    const loginPage: Promise<ReturnType<typeof createLoginPage> | null> = template
      ? loadLoginPrerenderer(root)
          .then(
            (prerenderer) =>
              prerenderer &&
              createLoginPage(app, { template, prerenderer, loginEntry: readLoginEntry(root) }),
          )
          .catch((error: unknown) => {
            app.log.error({ err: error }, 'Could not load the prerendering of /login; left out');
            return null;
          })
      : Promise.resolve(null);
    const hostTenantExists = createHostTenantCheck(app);

    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const url = request.raw.url ?? '/';
      if (isApiPath(url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send({ message: 'Not found', code: ErrorCode.notFound });
      }
      // These pages' URLs carry a live token from an e-mail (a reset, a sign-in link, an e-mail
      // change, a session to end): nothing they load or link to gets a Referer with it.
      if (tokenPages.some((path) => isPage(url, path, '/?#')))
        void reply.header('referrer-policy', 'no-referrer');
      if (!built) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built: run `npm run build` (npm start does it).');
      }
      void reply.header('cache-control', 'no-cache');
      // A host whose tenant does not exist gets a 404 saying so, not the app's sign-in form.
      if (!(await hostTenantExists(request))) {
        const csp = reply.getHeader('content-security-policy');
        const page = unknownPortalPage(
          request.headers['accept-language'],
          typeof csp === 'string' ? csp : '',
        );
        return reply
          .status(404)
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-security-policy', page.csp)
          .header('vary', 'accept-language')
          .send(page.html);
      }
      const login = isLoginPath(url) ? await loginPage : null;
      if (login) {
        const csp = reply.getHeader('content-security-policy');
        const page: LoginPage | null = await login(request, typeof csp === 'string' ? csp : '');
        if (page) {
          return reply
            .header('content-type', 'text/html; charset=utf-8')
            .header('content-security-policy', page.csp)
            .header('vary', 'accept-language')
            .send(page.html);
        }
      }
      return reply.sendFile('index.html');
    };
    app.setNotFoundHandler(page);
    // `/` is the app's too. Left to @fastify/static (index: false) it was a directory: a 403, read
    // as 400, for every client that sends no Accept-Encoding (curl, health checks, crawlers).
    app.get('/', { schema: { hide: true } }, page);
    // The app's page by its file name too: left to @fastify/static it was sent on any host, so an
    // unknown portal's /index.html opened the app and its sign-in form (session 37).
    app.get('/index.html', { schema: { hide: true } }, page);
  },
  { name: 'web' },
);
