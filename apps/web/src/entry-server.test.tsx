import { act } from '@testing-library/react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { changeLanguage, languages } from '@/lib/i18n';
import { captureTyped, forgetTyped, whileHydrating } from '@/lib/prerender';
import { defaultVisualConfig, type VisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { brandStylesheet, loginRoutes, renderLogin } from './entry-server';

const config: VisualConfig = {
  ...defaultVisualConfig,
  companyName: 'Club <Náutico> & "Amigos"',
  description: 'Vela y remo',
  logoUrl: '/t1/api/1.0/logo?v=1',
  primaryColor: '#1d4ed8',
  signInProviders: ['google', 'microsoft'],
};

/** The app's first render of /login in the browser: the same routes, the global i18n. */
async function clientTree(search = '') {
  const router = createMemoryRouter(loginRoutes, { initialEntries: [paths.login + search] });
  await new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (state.initialized) {
        stop();
        resolve();
      }
    });
  });
  return (
    <VisualConfigContext value={config}>
      <RouterProvider router={router} />
    </VisualConfigContext>
  );
}

const containers: HTMLElement[] = [];
function container(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  containers.push(element);
  return element;
}
/**
 * Markup as the browser parses it (renderToString writes `alt` for `alt=""`, and so on). A
 * field's value is an attribute on the server and a property in the browser: left out.
 */
function parsed(html: string): string {
  const element = document.createElement('div');
  element.innerHTML = html;
  for (const input of Array.from(element.querySelectorAll('input'))) input.removeAttribute('value');
  return element.innerHTML;
}

afterEach(async () => {
  for (const element of containers.splice(0)) element.remove();
  forgetTyped();
  await changeLanguage('es');
});

describe('the prerendered /login (issue 6)', () => {
  it.each(languages)('is, in %s, the markup the app renders first', async (language) => {
    const server = await renderLogin({ config, language, hostname: 'localhost' });
    await changeLanguage(language);
    const client = container();
    const tree = await clientTree();
    act(() => createRoot(client).render(tree));
    expect(client.innerHTML).toBe(parsed(server));
    // The branding and the language are in it, escaped.
    expect(client.innerHTML).toContain('Club &lt;Náutico&gt; &amp; "Amigos"');
    expect(server).toContain('src="/t1/api/1.0/logo?v=1"');
  });

  it("links the external sign-in of the host's tenant", async () => {
    const server = await renderLogin({ config, language: 'es', hostname: 'demo.example.com' });
    expect(server).toContain('href="/demo/api/1.0/auth/google/start?remember=0"');
    expect(server).not.toContain('/1/api/');
  });

  it('carries the external sign-in failure of its query', async () => {
    const search = '?signin_error=sign_in_failed';
    const server = await renderLogin({ config, language: 'es', hostname: 'localhost', search });
    const client = container();
    const tree = await clientTree(search);
    act(() => createRoot(client).render(tree));
    expect(client.innerHTML).toBe(parsed(server));
    expect(server).toContain('role="alert"');
  });

  it('is taken over in place, keeping the nodes and what was typed', async () => {
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost' });
    const email = page.querySelector<HTMLInputElement>('input[name="email"]');
    const remember = page.querySelector<HTMLInputElement>('input[name="remember"]');
    if (!email || !remember) throw new Error('no form');
    email.value = 'early@example.com';
    remember.checked = true;
    const before = page.innerHTML;
    captureTyped(page);
    const tree = await clientTree();
    await act(() => whileHydrating(() => hydrateRoot(page, tree)));
    expect(page.querySelector('input[name="email"]')).toBe(email);
    expect(email.value).toBe('early@example.com');
    expect(remember.checked).toBe(true);
    expect(page.innerHTML).toBe(before);
  });

  it('is taken over part by part, each in a task of its own, keeping keys typed meanwhile', async () => {
    const page = container();
    page.innerHTML = await renderLogin({ config, language: 'es', hostname: 'localhost' });
    const before = page.innerHTML;
    const email = page.querySelector<HTMLInputElement>('input[name="email"]');
    if (!email) throw new Error('no form');
    captureTyped(page);
    const tree = await clientTree();
    let hydrated = false;
    // Only the call itself: the parts (components/hydrate-later.tsx) wait for later tasks.
    act(() => {
      void whileHydrating(() => hydrateRoot(page, tree)).then(() => (hydrated = true));
    });
    await Promise.resolve();
    expect(hydrated).toBe(false);
    // Typed after the first task, before the form's turn: the form takes this, not what came before.
    email.value = 'late@example.com';
    await act(async () => {
      while (!hydrated) await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(page.querySelector('input[name="email"]')).toBe(email);
    expect(email.value).toBe('late@example.com');
    expect(page.innerHTML).toBe(before);
    // The app has the form now, with the late address: sent without a password, only that is wrong.
    await act(async () => {
      page.querySelector('form')?.requestSubmit();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
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
