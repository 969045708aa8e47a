/** Where the build writes the service worker (vite.config.ts), at the root so that it controls `/`. */
export const serviceWorkerUrl = '/sw.js';

/** The same-origin `/assets/*` files this page has loaded so far. */
export function loadedAssets(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => {
      const url = new URL(name, window.location.href);
      return url.origin === window.location.origin && url.pathname.startsWith('/assets/');
    });
}

/**
 * Registers the service worker once the page has loaded (it never competes with the first
 * screen), then hands it the assets the page loaded before it was in control. Production builds
 * only (main.tsx): the dev server has no `/sw.js`.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = async () => {
    try {
      await navigator.serviceWorker.register(serviceWorkerUrl);
      const registration = await navigator.serviceWorker.ready;
      registration.active?.postMessage({ type: 'cache-assets', urls: loadedAssets() });
    } catch (error) {
      // The portal works without it; it only opens slower and not offline.
      console.warn('The service worker could not be registered', error);
    }
  };
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
