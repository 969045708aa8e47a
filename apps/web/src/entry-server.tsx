/**
 * The server's side of the prerendered /login (issue 6): the API imports this module's build
 * (`dist-ssr/entry-server.js`, `npm run build`) and answers `GET /login` with the screen already in
 * the HTML, in the tenant's branding and the visitor's language, so the form paints before any
 * script has run. The browser then hydrates that markup in place (main.tsx, lib/prerender.ts).
 *
 * What is rendered here must be what the client renders first: the same route components, the
 * same texts, the same branding; `entry-server.test.tsx` compares the two.
 */
import { createInstance, type i18n as I18n, type ResourceKey } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouter,
  StaticRouterProvider,
} from 'react-router';
import { PublicLayoutRoute } from './app/routes/layouts';
import { RootRoute } from './app/routes/root';
import { LoginScreen } from './features/auth/components/login-screen';
import { paths } from './config/paths';
import { buildPrimaryPalette, scaleLevels } from './lib/colors';
import { defaultLanguage, defaultNamespace, type Language, languages } from './lib/i18n';
import { bootScript, loginIdPrefix, loginRootId, prerenderedAttribute } from './lib/prerender';
import { storageKeys } from './lib/storage';
import { renderingFor } from './lib/tenant';
import { type VisualConfig, VisualConfigContext } from './lib/visual-config';

export { languages, prerenderedAttribute, type Language, type VisualConfig };
export { defaultVisualConfig, toVisualConfig } from './lib/visual-config';

/** What /login shows: the namespaces the first chunk bundles (lib/i18n.ts), in every language. */
const loginNamespaces = ['common', 'auth'] as const;
const files = import.meta.glob<ResourceKey>(['./locales/*/common.json', './locales/*/auth.json'], {
  eager: true,
  import: 'default',
});

const instances = new Map<Language, Promise<I18n>>();

/** One i18next instance per language, its strings already in memory (nothing to wait for). */
function i18nFor(language: Language): Promise<I18n> {
  let instance = instances.get(language);
  if (!instance) {
    const i18n = createInstance();
    const resources = Object.fromEntries(
      languages.map((lng) => [
        lng,
        Object.fromEntries(
          loginNamespaces.map((ns) => [ns, files[`./locales/${lng}/${ns}.json`] ?? {}]),
        ),
      ]),
    );
    // Given to the tree by I18nextProvider: not `initReactI18next`, which would make it the
    // process-wide instance (lib/i18n.ts's, in the browser).
    instance = i18n
      .init({
        lng: language,
        resources,
        fallbackLng: defaultLanguage,
        supportedLngs: languages,
        load: 'languageOnly',
        ns: [...loginNamespaces],
        defaultNS: defaultNamespace,
        interpolation: { escapeValue: false },
        react: { useSuspense: false },
      })
      .then(() => i18n);
    instances.set(language, instance);
  }
  return instance;
}

/**
 * Where the sign-in screen goes: the element app/routes/login.tsx renders around it, which the
 * /login entry hydrates as a root of its own (src/login/main.tsx).
 */
const slot = `<div id="${loginRootId}" class="contents"></div>`;
function LoginSlot() {
  return <div id={loginRootId} className="contents" />;
}

/** The route tree above the sign-in screen, as app/router.tsx has it (without its loaders). */
export const loginRoutes = [
  {
    id: 'root',
    Component: RootRoute,
    children: [
      { Component: PublicLayoutRoute, children: [{ path: paths.login, Component: LoginSlot }] },
    ],
  },
];
const handler = createStaticHandler(loginRoutes);

/**
 * The markup of `#root` on /login for this branding and language. `search` is the page's query
 * (`?signin_error=...` shows its message).
 */
export async function renderLogin(input: {
  config: VisualConfig;
  language: Language;
  /** The page's host name: its tenant's API addresses (the external sign-in links). */
  hostname: string;
  search?: string;
}): Promise<string> {
  const i18n = await i18nFor(input.language);
  const context = await handler.query(
    new Request(`http://portal.invalid${paths.login}${input.search ?? ''}`),
  );
  if (context instanceof Response) throw new Error('/login answered a redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderingFor(input.hostname, () => {
    const page = renderToString(
      <I18nextProvider i18n={i18n}>
        <VisualConfigContext value={input.config}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </VisualConfigContext>
      </I18nextProvider>,
    );
    // The screen is a root of its own, as the /login entry hydrates it: its ids have their own
    // prefix, so they never meet the page's.
    const screen = renderToString(
      <I18nextProvider i18n={i18n}>
        <VisualConfigContext value={input.config}>
          <StaticRouter location={`${paths.login}${input.search ?? ''}`}>
            <LoginScreen />
          </StaticRouter>
        </VisualConfigContext>
      </I18nextProvider>,
      { identifierPrefix: loginIdPrefix },
    );
    if (!page.includes(slot)) throw new Error('/login has no place for the sign-in screen');
    return page.replace(slot, () => `<div id="${loginRootId}" class="contents">${screen}</div>`);
  });
}

/**
 * The tenant's primary colour as a stylesheet: the custom properties lib/colors.ts sets on `<html>`
 * at run time, in the page's `<style>` so that the first paint already has them.
 */
export function brandStylesheet(color: string): string {
  const { scale, fill, onFill, inkLight, inkDark } = buildPrimaryPalette(color);
  const declarations = [
    ...scaleLevels.map((level) => `--color-primary-${level}:${scale[level]}`),
    `--primary-fill:${fill}`,
    `--on-primary:${onFill}`,
    `--primary-ink-light:${inkLight}`,
    `--primary-ink-dark:${inkDark}`,
  ];
  return `:root{${declarations.join(';')}}`;
}

type Scripts = { entry: string; preloads: string[] };

/**
 * The inline script of a prerendered page, for this page's language (lib/prerender.ts): `scripts`
 * are the /login entry's module and its preloads (the page language's strings among them), `app`
 * the app's, which the server took out of the page. Without a /login entry, `scripts` are the
 * app's.
 */
export function prerenderBootScript(
  language: Language,
  scripts: Scripts & { app?: Scripts },
): string {
  return bootScript(language, {
    theme: storageKeys.theme,
    language: storageKeys.language,
    languages: [...languages],
    ...scripts,
  });
}
