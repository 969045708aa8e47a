/**
 * The server's side of the prerendered /login (issue 6): the API imports this module's build
 * (`dist-ssr/entry-server.js`, `npm run build`) and answers `GET /login` with the screen already in
 * the HTML, in the tenant's branding and the visitor's language, so the form paints before any
 * script has run. The browser then hydrates that markup in place (main.tsx, lib/prerender.ts).
 *
 * What is rendered here must be what the client renders first: the same route components, the
 * same texts, the same branding; `entry-server.test.tsx` compares the two.
 */
import { renderToString } from 'react-dom/server';
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
import { defaultLanguage, type Language, languages } from './lib/i18n';
import { bootScript, loginIdPrefix, loginRootId, prerenderedAttribute } from './lib/prerender';
import { storageKeys } from './lib/storage';
import { TextsProvider } from './lib/texts-context';
import { renderingFor } from './lib/tenant';
import type { Texts, Tree } from './lib/translate';
import { type VisualConfig, VisualConfigContext } from './lib/visual-config';

export { languages, prerenderedAttribute, type Language, type VisualConfig };
export { defaultVisualConfig, toVisualConfig } from './lib/visual-config';

/** What /login shows: the namespaces the first chunk bundles (lib/i18n.ts), in every language. */
const loginNamespaces = ['common', 'auth'] as const;
const files = import.meta.glob<Tree>(['./locales/*/common.json', './locales/*/auth.json'], {
  eager: true,
  import: 'default',
});

/** The strings of /login in one language (Spanish the fallback), already in memory. */
const textsFor = (language: Language): Texts => {
  const of = (lng: Language) =>
    Object.fromEntries(
      loginNamespaces.map((ns) => [ns, files[`./locales/${lng}/${ns}.json`] ?? {}]),
    );
  return { language, resources: of(language), fallback: of(defaultLanguage) };
};

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
  const texts = textsFor(input.language);
  const context = await handler.query(
    new Request(`http://portal.invalid${paths.login}${input.search ?? ''}`),
  );
  if (context instanceof Response) throw new Error('/login answered a redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderingFor(input.hostname, () => {
    const page = renderToString(
      <TextsProvider texts={texts}>
        <VisualConfigContext value={input.config}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </VisualConfigContext>
      </TextsProvider>,
    );
    // The screen is a root of its own, as the /login entry hydrates it: its ids have their own
    // prefix, so they never meet the page's.
    const screen = renderToString(
      <TextsProvider texts={texts}>
        <VisualConfigContext value={input.config}>
          <StaticRouter location={`${paths.login}${input.search ?? ''}`}>
            <LoginScreen />
          </StaticRouter>
        </VisualConfigContext>
      </TextsProvider>,
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
