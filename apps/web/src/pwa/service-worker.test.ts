import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The service worker runs here against a fake worker scope and an in-memory Cache Storage: its
 * listeners are called with fake events, `fetch` is the network.
 */

const origin = 'https://demo.portal.example';
const shell = [
  '/index.html',
  '/assets/index-abc.js',
  '/assets/index-abc.css',
  '/icons/icon-192.png',
];

class MemoryCache {
  readonly entries = new Map<string, Response>();
  private key(request: RequestInfo | URL): string {
    return new URL(request instanceof Request ? request.url : String(request), origin).href;
  }
  async match(request: RequestInfo | URL) {
    return this.entries.get(this.key(request))?.clone();
  }
  async put(request: RequestInfo | URL, response: Response) {
    this.entries.set(this.key(request), response);
  }
  async add(request: RequestInfo | URL) {
    const response = await fetch(this.key(request));
    if (!response.ok) throw new TypeError('Bad response');
    await this.put(request, response);
  }
  async addAll(requests: string[]) {
    for (const request of requests) await this.add(request);
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

class MemoryCaches {
  readonly caches = new Map<string, MemoryCache>();
  async open(name: string) {
    if (!this.caches.has(name)) this.caches.set(name, new MemoryCache());
    return this.caches.get(name) as MemoryCache;
  }
  async keys() {
    return [...this.caches.keys()];
  }
  async delete(name: string) {
    return this.caches.delete(name);
  }
  /** Every URL held, in every cache. */
  urls() {
    return [...this.caches.values()].flatMap((cache) => [...cache.entries.keys()]);
  }
}

type Listener = (event: unknown) => void;

let listeners: Record<string, Listener>;
let storage: MemoryCaches;
let network: ReturnType<typeof vi.fn>;
let scope: { skipWaiting: ReturnType<typeof vi.fn>; clients: { claim: ReturnType<typeof vi.fn> } };

beforeEach(async () => {
  listeners = {};
  storage = new MemoryCaches();
  network = vi.fn(async (request: RequestInfo | URL) => {
    const url = new URL(request instanceof Request ? request.url : String(request), origin);
    return new Response(`network ${url.pathname}`, { status: 200 });
  });
  scope = { skipWaiting: vi.fn(async () => {}), clients: { claim: vi.fn(async () => {}) } };
  vi.stubGlobal('self', {
    ...scope,
    location: { origin },
    addEventListener: (type: string, listener: Listener) => {
      listeners[type] = listener;
    },
  });
  vi.stubGlobal('caches', storage);
  vi.stubGlobal('fetch', network);
  vi.stubGlobal('__PORTAL_SW__', { version: 'build-2', shell });
  vi.resetModules();
  await import('./service-worker');
});

afterEach(() => vi.unstubAllGlobals());

/** Dispatches an extendable event and waits for what it asked to wait for. */
async function extendable(type: string, data?: unknown) {
  const waits: Promise<unknown>[] = [];
  listeners[type]?.({ data, waitUntil: (p: Promise<unknown>) => waits.push(p) });
  await Promise.all(waits);
}

/** Dispatches a fetch; resolves with the worker's answer, or `undefined` when it let it pass. */
async function dispatchFetch(request: Request) {
  let answer: Promise<Response> | undefined;
  listeners.fetch?.({ request, respondWith: (r: Promise<Response>) => (answer = r) });
  return answer ? await answer : undefined;
}

/** A navigation request (`mode` is read-only on a Request made by a script). */
const navigation = (path: string) =>
  Object.defineProperty(new Request(origin + path), 'mode', { value: 'navigate' });

describe('the service worker', () => {
  it('keeps the app shell when it installs, in a cache named after the build', async () => {
    await extendable('install');
    expect(await storage.keys()).toEqual(['portal-shell-build-2']);
    expect(storage.urls().sort()).toEqual(shell.map((path) => origin + path).sort());
    expect(scope.skipWaiting).toHaveBeenCalled();
  });

  it('deletes the caches of older builds when it takes over, and nobody else’s', async () => {
    await storage.open('portal-shell-build-1');
    await storage.open('someone-else');
    await extendable('install');
    await extendable('activate');
    expect((await storage.keys()).sort()).toEqual(['portal-shell-build-2', 'someone-else']);
    expect(scope.clients.claim).toHaveBeenCalled();
  });

  it('lets API calls, authorised requests, writes and foreign requests pass untouched', async () => {
    await extendable('install');
    network.mockClear();
    const untouched = [
      new Request(`${origin}/demo/api/1.0/visual-config`),
      new Request(`${origin}/demo/api/1.0/invoices`, { method: 'POST', body: '{}' }),
      navigation('/demo/api/1.0/auth/google/start'),
      new Request(`${origin}/assets/index-abc.js`, { headers: { Authorization: 'Bearer x' } }),
      new Request(`${origin}/login`, { method: 'POST', body: 'x' }),
      new Request('https://cdn.example/assets/x.js'),
      new Request(`${origin}/manifest.webmanifest`),
    ];
    for (const request of untouched)
      expect(await dispatchFetch(request), request.url).toBeUndefined();
    expect(network).not.toHaveBeenCalled();
    expect(storage.urls().some((url) => url.includes('/api/'))).toBe(false);
  });

  it('answers navigations from the network, and with the cached index.html when offline', async () => {
    await extendable('install');
    expect(await (await dispatchFetch(navigation('/invoices')))?.text()).toBe('network /invoices');
    network.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await (await dispatchFetch(navigation('/invoices')))?.text()).toBe(
      'network /index.html',
    );
  });

  it('answers assets from the cache first, and keeps the ones it fetches', async () => {
    await extendable('install');
    network.mockClear();
    expect(await (await dispatchFetch(new Request(`${origin}/assets/index-abc.js`)))?.text()).toBe(
      'network /assets/index-abc.js',
    );
    expect(network).not.toHaveBeenCalled();

    await dispatchFetch(new Request(`${origin}/assets/home-def.js`));
    expect(network).toHaveBeenCalledTimes(1);
    expect(storage.urls()).toContain(`${origin}/assets/home-def.js`);
    await dispatchFetch(new Request(`${origin}/assets/home-def.js`));
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed asset', async () => {
    network.mockResolvedValueOnce(new Response('gone', { status: 404 }));
    expect((await dispatchFetch(new Request(`${origin}/assets/old-123.js`)))?.status).toBe(404);
    expect(storage.urls()).not.toContain(`${origin}/assets/old-123.js`);
  });

  it('keeps the assets the page loaded before it took over, and only assets', async () => {
    await extendable('message', {
      type: 'cache-assets',
      urls: [
        `${origin}/assets/login-xyz.js`,
        `${origin}/demo/api/1.0/visual-config`,
        `${origin}/demo/api/1.0/assets/x.js`,
        'https://cdn.example/assets/x.js',
        42,
      ],
    });
    expect(storage.urls()).toEqual([`${origin}/assets/login-xyz.js`]);
  });
});
