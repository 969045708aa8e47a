import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import type * as ReactRouter from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginScreen } from '@/features/auth/components/login-screen';
import { languages } from '@/lib/i18n';
import {
  captureTyped,
  forgetTyped,
  loginIdPrefix,
  loginRootId,
  whileHydrating,
} from '@/lib/prerender';
import { defaultVisualConfig, type VisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { brandStylesheet, renderLogin } from './entry-server';
import { TextsProvider } from './lib/texts-context';
import type * as UseTranslation from './lib/use-translation';

/**
 * The /login entry is built with `react-router` and `@/lib/use-translation` resolved to its
 * stand-ins (src/login/, vite.config.ts `--mode login`); the server renders with the app's. Here both:
 * the stand-ins while the browser's side hydrates.
 */
const standIns = vi.hoisted(() => ({ on: false }));
vi.mock('react-router', async (importOriginal) => {
  const real = await importOriginal<typeof ReactRouter>();
  const mini = await import('./login/react-router');
  return {
    ...real,
    Link: (props: Parameters<typeof mini.Link>[0]) =>
      standIns.on ? <mini.Link {...props} /> : <real.Link {...props} />,
    useNavigate: () => (standIns.on ? mini : real).useNavigate(),
    useSearchParams: () => (standIns.on ? mini : real).useSearchParams(),
  };
});
vi.mock('@/lib/use-translation', async (importOriginal) => {
  const real = await importOriginal<typeof UseTranslation>();
  const mini = await import('./login/use-translation');
  return {
    ...real,
    useTranslation: (namespace?: 'common' | 'auth' | ('common' | 'auth')[]) =>
      standIns.on ? mini.useTranslation(namespace) : real.useTranslation(namespace),
  };
});

const config: VisualConfig = {
  ...defaultVisualConfig,
  companyName: 'Club <Náutico> & "Amigos"',
  description: 'Vela y remo',
  logoUrl: '/t1/api/1.0/logo?v=1',
  primaryColor: '#1d4ed8',
  signInProviders: ['google', 'microsoft'],
};

type Tree = Record<string, unknown>;
const strings = import.meta.glob<Tree>(['./locales/*/common.json', './locales/*/auth.json'], {
  eager: true,
  import: 'default',
});
const textsOf = (language: string) => ({
  language,
  resources: {
    common: strings[`./locales/${language}/common.json`] as never,
    auth: strings[`./locales/${language}/auth.json`] as never,
  },
});

const containers: HTMLElement[] = [];
function container(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  containers.push(element);
  return element;
}

/** What the /login entry does (src/login/main.tsx): hydrates `#login-root` with the stand-ins. */
async function hydrateLogin(page: HTMLElement, language: string) {
  const root = page.querySelector<HTMLElement>(`#${loginRootId}`);
  if (!root) throw new Error('no #login-root');
  captureTyped(root);
  const errors: unknown[] = [];
  const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => {
    errors.push(args);
  });
  standIns.on = true;
  try {
    await act(() =>
      whileHydrating(() => {
        hydrateRoot(
          root,
          <VisualConfigContext value={config}>
            <TextsProvider texts={textsOf(language)}>
              <LoginScreen />
            </TextsProvider>
          </VisualConfigContext>,
          { identifierPrefix: loginIdPrefix, onRecoverableError: (error) => errors.push(error) },
        );
      }),
    );
  } finally {
    standIns.on = false;
    consoleError.mockRestore();
  }
  return errors;
}

afterEach(() => {
  for (const element of containers.splice(0)) element.remove();
  forgetTyped();
  window.history.replaceState(null, '', '/');
});

describe('the prerendered /login (issues 6 and 21)', () => {
  it.each(languages)(
    'is hydrated in %s by the /login entry without a mismatch, keeping every node',
    async (language) => {
      const page = container();
      page.innerHTML = await renderLogin({ config, language, hostname: 'localhost' });
      const before = page.innerHTML;
      const nodes = Array.from(page.querySelectorAll('*'));
      window.history.replaceState(null, '', '/login');
      expect(await hydrateLogin(page, language)).toEqual([]);
      expect(page.innerHTML).toBe(before);
      expect(Array.from(page.querySelectorAll('*'))).toEqual(nodes);
      // The branding is in it, escaped.
      expect(before).toContain('Club &lt;Náutico&gt; &amp; "Amigos"');
      expect(before).toContain('src="/t1/api/1.0/logo?v=1"');
    },
  );

  it('links the legal pages beside each other, the accessibility statement too (issue 23)', async () => {
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost' });
    const legal = page.querySelector('nav[aria-label="Legal"]');
    expect(
      Array.from(legal?.querySelectorAll('a') ?? []).map((a) => [
        a.getAttribute('href'),
        a.textContent,
      ]),
    ).toEqual([
      ['/privacidad', 'Privacidad'],
      ['/cookies', 'Política de cookies'],
      ['/accesibilidad', 'Accesibilidad'],
    ]);
  });

  it("links the external sign-in of the host's tenant", async () => {
    const server = await renderLogin({ config, language: 'es', hostname: 'demo.example.com' });
    expect(server).toContain('href="/demo/api/1.0/auth/google/start?remember=0"');
    expect(server).not.toContain('/1/api/');
  });

  it('carries the external sign-in failure of its query, and hydrates with it', async () => {
    const search = '?signin_error=sign_in_failed';
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost', search });
    expect(page.innerHTML).toContain('role="alert"');
    const before = page.innerHTML;
    window.history.replaceState(null, '', `/login${search}`);
    expect(await hydrateLogin(page, 'es')).toEqual([]);
    expect(page.innerHTML).toBe(before);
  });

  it('gives the sign-in screen ids of its own, apart from the page around it', async () => {
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost' });
    const ids = Array.from(page.querySelectorAll('[id]'), (element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    const screen = page.querySelector(`#${loginRootId}`);
    for (const element of Array.from(screen?.querySelectorAll('[id]') ?? [])) {
      expect(element.id).toContain(loginIdPrefix);
    }
  });

  it('is taken over keeping what was typed, and then runs the form', async () => {
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost' });
    const email = page.querySelector<HTMLInputElement>('input[name="email"]');
    const remember = page.querySelector<HTMLInputElement>('input[name="remember"]');
    if (!email || !remember) throw new Error('no form');
    email.value = 'early@example.com';
    remember.checked = true;
    window.history.replaceState(null, '', '/login');
    expect(await hydrateLogin(page, 'es')).toEqual([]);
    expect(page.querySelector('input[name="email"]')).toBe(email);
    expect(email.value).toBe('early@example.com');
    expect(remember.checked).toBe(true);
    // The form is React's, with the typed address: sent without a password, only that is wrong.
    standIns.on = true;
    await act(async () => {
      page.querySelector('form')?.requestSubmit();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    standIns.on = false;
    expect(email.getAttribute('aria-invalid')).not.toBe('true');
    const password = page.querySelector<HTMLInputElement>('input[name="password"]');
    expect(password?.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('brandStylesheet', () => {
  it('sets the primary scale and its contrast colours, as lib/colors.ts does at run time', () => {
    const css = brandStylesheet('#1d4ed8');
    expect(css).toMatch(/^:root\{--color-primary-50:#[0-9a-f]{6};/);
    expect(css).toContain('--primary-fill:');
    expect(css).toContain('--on-primary:#ffffff');
    expect(css).toContain('--primary-ink-dark:');
    expect(css).not.toMatch(/[<>]/);
  });
});
