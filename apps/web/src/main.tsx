import './index.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createAppRouter } from './app/router';
import { paths } from './config/paths';
import { getLanguage, i18nReady } from './lib/i18n';
import {
  captureTyped,
  forgetTyped,
  nextTask,
  prerenderedAttribute,
  prerenderedLanguage,
  staleClass,
  takeHeld,
  whileHydrating,
} from './lib/prerender';
import { initTheme } from './lib/theme';
import { loadVisualConfig, type VisualConfig } from './lib/visual-config';
import { registerServiceWorker } from './pwa/register-service-worker';

// Before anything renders: the theme class (no flash of the wrong theme) and, in parallel, the
// tenant's branding, the translations (started by the i18n import) and the first screen's chunk.
initTheme();
const visualConfig = loadVisualConfig();
type Router = ReturnType<typeof createAppRouter>;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

const app = (router: Router, config: VisualConfig | Promise<VisualConfig>) => (
  <StrictMode>
    <App router={router} visualConfig={config} />
  </StrictMode>
);

/** Resolves once the router has run the first navigation's loaders and lazy routes. */
const routerReady = (router: Router) =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });

/**
 * A prerendered /login (lib/prerender.ts) stays on screen, usable, until everything its first
 * render needs is here, so that render never falls back to the spinner. Then the app takes over
 * the same markup (hydration) keeping what was typed, and sends a form sent meanwhile. Where the
 * page turned out to be another (a restored session moved on) or in another language than the
 * visitor's, the app renders afresh instead, in the same frame.
 */
async function takeOver(router: Router, container: HTMLElement, language: string) {
  const [config] = await Promise.all([visualConfig, i18nReady, routerReady(router)]);
  // The hydration starts a task of its own (issue 6: no long task on a slow phone).
  await nextTask();
  captureTyped(container);
  const same =
    router.state.location.pathname === paths.login &&
    !router.state.errors &&
    getLanguage() === language;
  if (same) {
    // Its parts take a task each (components/hydrate-later.tsx): the page answers in between.
    await whileHydrating(() => hydrateRoot(container, app(router, config)));
  } else {
    const focused = document.activeElement;
    const name =
      focused instanceof HTMLInputElement && container.contains(focused) ? focused.name : '';
    createRoot(container).render(app(router, config));
    if (name)
      container.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"]`)?.focus();
  }
  document.documentElement.classList.remove(staleClass);
  // The markup is the app's now (and a sign of it for the tests).
  container.removeAttribute(prerenderedAttribute);
  forgetTyped();
  const held = takeHeld();
  if (router.state.location.pathname !== paths.login) return;
  if (held.form)
    (held.form.isConnected ? held.form : container.querySelector('form'))?.requestSubmit();
  else if (held.button?.isConnected) held.button.click();
}

async function start(container: HTMLElement) {
  // Evaluating the modules is one task, the router's first navigation the next (issue 6).
  await nextTask();
  const router = createAppRouter();
  const language = prerenderedLanguage(container);
  if (!language) {
    takeHeld();
    createRoot(container).render(app(router, visualConfig));
    return;
  }
  try {
    await takeOver(router, container, language);
  } catch (error) {
    console.error('Could not take over the prerendered page; rendering it afresh', error);
    document.documentElement.classList.remove(staleClass);
    createRoot(container).render(app(router, visualConfig));
  }
}

void start(root);

// Installable and quick to reopen (src/pwa): production builds only, never the dev server or tests.
if (import.meta.env.PROD) registerServiceWorker();
