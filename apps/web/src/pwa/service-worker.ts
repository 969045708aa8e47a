/**
 * The portal's service worker, built to `/sw.js` by the `portal:service-worker` plugin of
 * vite.config.ts, which puts `__PORTAL_SW__` (the build's version and app-shell files) in front
 * of it. A classic worker script: no imports, no exports.
 *
 * - It keeps the app shell (index.html, the hashed assets, the icons) so that the portal opens
 *   like an app, also offline. Data screens still need the network.
 * - Navigations: network first; the cached index.html only when the network fails.
 * - `/assets/*`: cache first (their names change with their content); cached as they are used.
 * - Never: anything under `/{tenant}/api/`, any request with an Authorization header, any
 *   non-GET or foreign request. Those go to the network untouched and are never written.
 * - One cache per build: a new deployment installs a new worker, which takes over at once and
 *   deletes the caches of the old builds.
 */

type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  respondWith(response: Promise<Response>): void;
};
type ExtendableMessageEvent = ExtendableEvent & { data: unknown };
type WorkerScope = {
  location: { origin: string };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
};

declare const __PORTAL_SW__: { version: string; shell: string[] };

const worker = self as unknown as WorkerScope;
const { version, shell } = __PORTAL_SW__;
const cachePrefix = 'portal-shell-';
const cacheName = `${cachePrefix}${version}`;
const shellPage = '/index.html';

/** `/{tenant}/api/...`: the API (apps/api/src/plugins/external/web.ts reads paths the same way). */
const isApiPath = (path: string): boolean => /^\/[^/]+\/api(\/|$)/.test(path);

/** Only the app's own files, fetched without credentials of any kind, may touch the cache. */
function isAppFile(request: Request, url: URL): boolean {
  return (
    request.method === 'GET' &&
    url.origin === worker.location.origin &&
    !isApiPath(url.pathname) &&
    !request.headers.has('authorization')
  );
}

const isAsset = (url: URL): boolean => url.pathname.startsWith('/assets/');

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      .then((cache) => cache.addAll(shell))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(cachePrefix) && name !== cacheName)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

async function networkFirst(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await (await caches.open(cacheName)).match(shellPage);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(cacheName);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!isAppFile(request, url)) return;
  if (request.mode === 'navigate') event.respondWith(networkFirst(request));
  else if (isAsset(url)) event.respondWith(cacheFirst(request));
  else if (shell.includes(url.pathname)) event.respondWith(cacheFirst(request));
});

/**
 * The page sends the assets it loaded before this worker controlled it (its first screen's
 * chunks): kept too, so that the shell it has just shown opens offline. Assets only.
 */
worker.addEventListener('message', (event) => {
  const message = event.data as { type?: unknown; urls?: unknown } | null;
  if (message?.type !== 'cache-assets' || !Array.isArray(message.urls)) return;
  const urls = message.urls
    .filter((value): value is string => typeof value === 'string')
    .map((value) => new URL(value, worker.location.origin))
    .filter(
      (url) => url.origin === worker.location.origin && isAsset(url) && !isApiPath(url.pathname),
    );
  event.waitUntil(
    caches.open(cacheName).then((cache) =>
      Promise.all(
        urls.map(async (url) => {
          if (await cache.match(url.href)) return;
          // A file of another build (gone from the server) is simply not kept.
          await cache.add(url.href).catch(() => undefined);
        }),
      ),
    ),
  );
});
