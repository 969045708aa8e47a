import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@portal/contract';
import fp from 'fastify-plugin';

/** `/{tenant}/api/...`: everything else that is not a file is a route of the single-page app. */
export const isApiPath = (url: string): boolean => /^\/[^/?#]+\/api(\/|$|\?)/.test(url);

/**
 * Serves the built web app: hashed assets cached for a year (their name changes with their
 * content), everything else revalidated, precompressed brotli/gzip copies when the browser takes
 * them, and `index.html` for every path of the app (SPA fallback).
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
    app.setNotFoundHandler(async (request, reply) => {
      const url = request.raw.url ?? '/';
      if (isApiPath(url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send({ message: 'Not found', code: ErrorCode.notFound });
      }
      // The reset page's URL carries the reset token: nothing it loads or links to gets a Referer.
      if (/^\/reset-password(?:[/?#]|$)/.test(url))
        void reply.header('referrer-policy', 'no-referrer');
      if (!built) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built: run `npm run build` (npm start does it).');
      }
      void reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    });
  },
  { name: 'web' },
);
