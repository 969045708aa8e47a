import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type TVisualConfig, ZTenantId } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { tenantFromHostname } from './host.ts';
import { createTenantRepository } from './repository.ts';
import { tenantLogoUrl } from './service.ts';
import { createTenantService } from './service.ts';

/**
 * What the web app's server build exports (apps/web/src/entry-server.tsx, built by `npm run build`
 * into `apps/web/dist-ssr/`). A plain JavaScript module: its shape is restated here.
 */
export type LoginPrerenderer = {
  languages: readonly string[];
  prerenderedAttribute: string;
  renderLogin(input: {
    config: unknown;
    language: string;
    hostname: string;
    search?: string;
  }): Promise<string>;
  toVisualConfig(config: TVisualConfig): unknown;
  brandStylesheet(color: string): string;
  prerenderBootScript(language: string, scripts: PageScripts & { app?: PageScripts }): string;
};

/** The app's entry module and the modules it preloads, as the built index.html lists them. */
export type PageScripts = { entry: string; preloads: string[] };

const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const preloadTag = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/**
 * The template without its script tags, and what they loaded: the prerendered page's boot script
 * loads them once the page has painted (apps/web/src/lib/prerender.ts).
 */
export function takeScripts(template: string): { template: string; scripts: PageScripts } | null {
  const entry = entryTag.exec(template)?.[1];
  if (!entry) return null;
  const preloads = [...template.matchAll(preloadTag)].map((match) => match[1] ?? '');
  return {
    template: template.replace(entryTag, '').replace(preloadTag, ''),
    scripts: { entry, preloads },
  };
}

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };

/**
 * The /login entry's scripts in a page language (apps/web/src/login/main.tsx, built by `npm run
 * build` with its manifest in `dist/.vite/login-manifest.json`): its module, what it imports and
 * the language's sign-in strings, which it would otherwise fetch one round trip later.
 */
export type LoginEntry = (language: string) => PageScripts;

export function readLoginEntry(webRoot: string): LoginEntry | null {
  const path = join(webRoot, '.vite', 'login-manifest.json');
  if (!existsSync(path)) return null;
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) return null;
  const imports = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || imports.has(chunk.file)) return;
    imports.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of entry.imports ?? []) visit(key);
  return (language) => ({
    entry: `/${entry.file}`,
    preloads: [
      ...[...imports].map((file) => `/${file}`),
      ...['common', 'auth'].flatMap((namespace) => {
        const chunk = manifest[`src/locales/${language}/${namespace}.json`];
        return chunk ? [`/${chunk.file}`] : [];
      }),
    ],
  });
}

/** The server build beside the browser's: `apps/web/dist` has `apps/web/dist-ssr`. */
const prerendererPath = (webRoot: string): string =>
  join(webRoot, '..', 'dist-ssr', 'entry-server.js');

/** The web app's server build, or null when the app was built without it. */
export async function loadLoginPrerenderer(webRoot: string): Promise<LoginPrerenderer | null> {
  const path = prerendererPath(webRoot);
  if (!existsSync(path)) return null;
  return (await import(pathToFileURL(path).href)) as LoginPrerenderer;
}

/**
 * The page's language: the first of the visitor's (Accept-Language, by preference) that the
 * portal speaks, else the first the portal lists (Spanish), as the web app picks from the
 * browser's languages (apps/web/src/lib/language-detector.ts).
 */
export function pageLanguage(acceptLanguage: string | undefined, languages: readonly string[]) {
  const [first] = new Negotiator({
    headers: { 'accept-language': acceptLanguage ?? '' },
  }).languages([...languages]);
  return first && acceptLanguage ? first : (languages[0] ?? 'es');
}

const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The Content-Security-Policy with the page's inline script and style allowed by their hash, and
 * the `style` attributes its server-rendered markup holds (a component's fixed inline style, such
 * as the hidden input of Radix's switch), each by its own hash under 'unsafe-hashes': nothing
 * else inline is allowed.
 */
export function allowInline(
  csp: string,
  script: string,
  style: string,
  styleAttributes: readonly string[] = [],
): string {
  const attributes = [...new Set(styleAttributes)].map(sha256);
  return csp
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(/\s+/)[0];
      if (name === 'script-src') return `${directive} ${sha256(script)}`;
      if (name === 'style-src')
        return attributes.length > 0
          ? `${directive} ${sha256(style)} 'unsafe-hashes' ${attributes.join(' ')}`
          : `${directive} ${sha256(style)}`;
      return directive;
    })
    .join(';');
}

/** The values of the `style` attributes in server-rendered markup (React escapes `"` as &quot;). */
export const styleAttributesOf = (html: string): string[] =>
  [...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) =>
    (m[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&'),
  );

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The marks of the built index.html that the prerendered page fills in. */
const marks = {
  html: '<html lang="es">',
  title: /<title>[^<]*<\/title>/,
  headEnd: '</head>',
  root: '<div id="root"></div>',
} as const;

/** Whether index.html has every mark the page fills in (a changed template is left alone). */
export function isTemplate(html: string): boolean {
  return (
    entryTag.test(html) &&
    html.includes(marks.html) &&
    marks.title.test(html) &&
    html.includes(marks.headEnd) &&
    html.includes(marks.root)
  );
}

/** index.html with the prerendered screen, its language, title, brand colours and boot script. */
export function fillTemplate(
  template: string,
  page: {
    language: string;
    title: string;
    style: string;
    script: string;
    attribute: string;
    markup: string;
  },
): string {
  const language = escapeHtml(page.language);
  return template
    .replace(marks.html, () => `<html lang="${language}">`)
    .replace(marks.title, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      marks.headEnd,
      () => `<style>${page.style}</style><script>${page.script}</script>${marks.headEnd}`,
    )
    .replace(
      marks.root,
      () => `<div id="root" ${page.attribute}="${language}">${page.markup}</div>`,
    );
}

export type LoginPage = { html: string; csp: string };

/**
 * `GET /login` already rendered (issue 6, LCP): the tenant of the host's branding, the visitor's
 * language. Null when it cannot be (an unknown tenant, a failed render): the plain index.html then
 * renders it in the browser as before.
 */
export function createLoginPage(
  app: FastifyInstance,
  options: { template: string; prerenderer: LoginPrerenderer; loginEntry?: LoginEntry | null },
) {
  const taken = takeScripts(options.template);
  if (!taken) throw new Error('index.html has no entry script');
  const { template, scripts } = taken;
  const { prerenderer } = options;
  const repository = createTenantRepository();
  const service = createTenantService(app.db);
  // Rendering takes a few milliseconds: pages are kept per branding, language and query.
  const cache = new Map<string, { html: string; script: string; style: string }>();

  return async (request: FastifyRequest, csp: string): Promise<LoginPage | null> => {
    const id = ZTenantId.safeParse(tenantFromHostname(request.hostname));
    if (!id.success) return null;
    const tenant = await app.db.withTenant(id.data, (sql) => repository.findTenant(sql, id.data));
    if (!tenant) return null;
    const visual = await service.getVisualConfig(tenant, tenantLogoUrl('', tenant.id));
    const language = pageLanguage(request.headers['accept-language'], prerenderer.languages);
    const url = request.raw.url ?? '';
    const search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    const key = JSON.stringify([visual, language, request.hostname, search]);
    let page = cache.get(key);
    if (!page) {
      const config = prerenderer.toVisualConfig(visual) as {
        companyName: string;
        primaryColor: string;
      };
      let markup: string;
      try {
        markup = await prerenderer.renderLogin({
          config,
          language,
          hostname: request.hostname,
          search,
        });
      } catch (error) {
        // The page still works rendered in the browser: a failure here costs only speed.
        request.log.error({ err: error }, 'Could not prerender /login; serving the plain page');
        return null;
      }
      const style = prerenderer.brandStylesheet(config.primaryColor);
      // The /login entry runs the form; the app comes when the visitor goes further.
      const script = prerenderer.prerenderBootScript(
        language,
        options.loginEntry ? { ...options.loginEntry(language), app: scripts } : scripts,
      );
      const html = fillTemplate(template, {
        language,
        title: config.companyName,
        style,
        script,
        attribute: prerenderer.prerenderedAttribute,
        markup,
      });
      page = { html, script, style };
      if (cache.size >= 200) cache.clear();
      cache.set(key, page);
    }
    return {
      html: page.html,
      csp: allowInline(csp, page.script, page.style, styleAttributesOf(page.html)),
    };
  };
}

/** The built index.html, when it can take a prerendered page. */
export function readTemplate(webRoot: string): string | null {
  const path = join(webRoot, 'index.html');
  if (!existsSync(path)) return null;
  const html = readFileSync(path, 'utf8');
  return isTemplate(html) ? html : null;
}
