import './index.css';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createAppRouter } from './app/router';
import { paths } from './config/paths';
import { i18nReady } from './lib/i18n';
import {
  captureTyped,
  forgetTyped,
  nextTask,
  prerenderedAttribute,
  prerenderedLanguage,
  staleClass,
  takeHeld,
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
 * A prerendered /login (lib/prerender.ts) whose form the /login entry runs (src/login/main.tsx),
 * or which is in another language than the visitor's, or whose /login entry could not be had:
 * the app renders the page afresh, in one frame, once everything its first render needs is here
 * (so it never falls back to the spinner), keeping what was typed and the focus, then sends a
 * form sent meanwhile and presses again the button (the menu's) that brought the app.
 */
async function takeOver(router: Router, container: HTMLElement) {
  const [config] = await Promise.all([visualConfig, i18nReady, routerReady(router)]);
  await nextTask();
  captureTyped(container);
  const focused = document.activeElement;
  const name =
    focused instanceof HTMLInputElement && container.contains(focused) ? focused.name : '';
  const held = takeHeld();
  const buttons = () => Array.from(container.querySelectorAll('button'));
  const pressed = held.button ? buttons().indexOf(held.button) : -1;
  flushSync(() => {
    window.__portalLogin?.release();
    createRoot(container).render(app(router, config));
  });
  document.documentElement.classList.remove(staleClass);
  // The markup is the app's now (and a sign of it for the tests).
  container.removeAttribute(prerenderedAttribute);
  if (name) container.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"]`)?.focus();
  forgetTyped();
  if (router.state.location.pathname !== paths.login) return;
  if (held.form) container.querySelector('form')?.requestSubmit();
  else if (pressed >= 0) buttons()[pressed]?.click();
}

async function start(container: HTMLElement) {
  // Evaluating the modules is one task, the router's first navigation the next (issue 6).
  await nextTask();
  const router = createAppRouter();
  if (!window.__portalLogin && !prerenderedLanguage(container)) {
    takeHeld();
    createRoot(container).render(app(router, visualConfig));
    return;
  }
  try {
    await takeOver(router, container);
  } catch (error) {
    console.error('Could not take over the prerendered page; rendering it afresh', error);
    window.__portalLogin?.release();
    document.documentElement.classList.remove(staleClass);
    createRoot(container).render(app(router, visualConfig));
  }
}

void start(root);

// Installable and quick to reopen (src/pwa): production builds only, never the dev server or tests.
if (import.meta.env.PROD) registerServiceWorker();
