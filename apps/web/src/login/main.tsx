/**
 * The /login entry (docs/decisions/018): what a visitor of the prerendered /login downloads. It
 * hydrates the sign-in screen (`#login-root`, its own React root) with React and the screen's
 * code only: no router, no store of translations, no icons of other screens. The rest of the page (header,
 * menu) stays the server's markup until the visitor goes further than the form: a button there
 * loads the app, which takes the whole page over and presses it again (main.tsx); a link loads
 * its page; signing in goes to the next screen, where the app starts.
 *
 * Built on its own (`vite build --mode login`), with `react-router` and the app's
 * `@/lib/use-translation` resolved to the few lines the screen uses of them (./react-router.tsx,
 * ./use-translation.tsx).
 */
import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { registerServiceWorker } from '@/pwa/register-service-worker';
import { LoginScreen } from '@/features/auth/components/login-screen';
import {
  captureTyped,
  forgetTyped,
  loginIdPrefix,
  loginRootId,
  nextTask,
  prerenderedAttribute,
  prerenderedLanguage,
  takeHeld,
  whileHydrating,
} from '@/lib/prerender';
import { loadVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { TextsProvider } from '@/lib/texts-context';
import type { Texts } from '@/lib/translate';

type Tree = Texts['resources'][string];
const files = import.meta.glob<Tree>(['../locales/*/common.json', '../locales/*/auth.json'], {
  import: 'default',
});

/** The page language's `common` and `auth` strings (the server preloads their chunks). */
async function loadTexts(language: string): Promise<Texts> {
  const [common, auth] = await Promise.all(
    ['common', 'auth'].map((namespace) => {
      const load = files[`../locales/${language}/${namespace}.json`];
      if (!load) throw new Error(`No ${namespace} strings for ${language}`);
      return load();
    }),
  );
  return { language, resources: { common: common ?? {}, auth: auth ?? {} } };
}

/** Resolves `done` once React has committed the hydrated screen. */
function Committed({ done, children }: { done: () => void; children: ReactNode }) {
  useEffect(done, [done]);
  return children;
}

/** Hands the page to the app: buttons outside the form (the menu's) are the app's to act on. */
function holdOutsideClicks(container: HTMLElement): () => void {
  const onClick = (event: MouseEvent) => {
    const button =
      event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    if (!(button instanceof HTMLButtonElement) || container.contains(button)) return;
    event.stopPropagation();
    window.__portalHeldButton = button;
    window.__portalLoadApp?.();
  };
  document.addEventListener('click', onClick, true);
  return () => document.removeEventListener('click', onClick, true);
}

async function start() {
  const page = document.getElementById('root');
  const container = document.getElementById(loginRootId);
  const language = page ? prerenderedLanguage(page) : null;
  if (!page || !container || !language) {
    window.__portalLoadApp?.();
    return;
  }
  const [texts, config] = await Promise.all([loadTexts(language), loadVisualConfig()]);
  // The hydration starts a task of its own (issue 6: no long task on a slow phone).
  await nextTask();
  captureTyped(container);
  let committed!: () => void;
  const hydrated = new Promise<void>((resolve) => (committed = resolve));
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await whileHydrating(() => {
    startTransition(() => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <Committed done={committed}>
            <VisualConfigContext value={config}>
              <TextsProvider texts={texts}>
                <LoginScreen />
              </TextsProvider>
            </VisualConfigContext>
          </Committed>
        </StrictMode>,
        { identifierPrefix: loginIdPrefix },
      );
    });
    return hydrated;
  });
  forgetTyped();
  // The form is React's now (and a sign of it for the tests); the rest of the page the app's.
  page.removeAttribute(prerenderedAttribute);
  const held = takeHeld();
  const stopHolding = holdOutsideClicks(container);
  window.__portalLogin = {
    release() {
      stopHolding();
      root?.unmount();
      delete window.__portalLogin;
    },
  };
  if (held.form) container.querySelector('form')?.requestSubmit();
  else if (held.button && container.contains(held.button)) held.button.click();
  else if (held.button) {
    window.__portalHeldButton = held.button;
    window.__portalLoadApp?.();
  }
}

start().catch((error: unknown) => {
  console.error('Could not take over the sign-in form; loading the app', error);
  window.__portalLoadApp?.();
});

// /login is the first page of most visits: the service worker (offline shell, installability)
// registers from here too, after the page has loaded, as the app's entry does.
if (import.meta.env.PROD) registerServiceWorker();
