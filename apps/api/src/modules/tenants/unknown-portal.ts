import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ZTenantId } from '@portal/contract';
import type { Language } from '../mail/messages.ts';
import { tenantFromHostname } from './host.ts';
import { allowInline, pageLanguage } from './login-page.ts';
import { createTenantRepository } from './repository.ts';

/**
 * The page of a host whose tenant does not exist (PRODUCT.md "Screens", finding #15): a 404 that
 * says so in the visitor's language, instead of the web app's sign-in form for a portal that is
 * not there. The server words it, like the e-mails: no web app (no branding, no translations) is
 * loaded for a portal that does not exist.
 */
const unknownPortalTexts: Record<Language, { title: string; body: string }> = {
  es: {
    title: 'Este portal no existe',
    body: 'Comprueba la dirección: no hay ninguna oficina online en ella. Si te la ha dado tu centro, pídele el enlace correcto.',
  },
  ca: {
    title: 'Aquest portal no existeix',
    body: "Comprova l'adreça: no hi ha cap oficina en línia. Si te l'ha donat el teu centre, demana-li l'enllaç correcte.",
  },
  en: {
    title: 'This portal does not exist',
    body: 'Check the address: there is no online office at it. If your club gave it to you, ask them for the right link.',
  },
  eu: {
    title: 'Atari hau ez dago',
    body: 'Egiaztatu helbidea: ez dago bulego birtualik bertan. Zure zentroak eman badizu, eskatu esteka zuzena.',
  },
};

const languages = ['es', 'ca', 'en', 'eu'] as const;

const style =
  'body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:#f9fafb;color:#111827}' +
  'main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .75rem}p{margin:0;color:#374151}' +
  '@media (prefers-color-scheme:dark){body{background:#111827;color:#f9fafb}p{color:#d1d5db}}';

/** The page in the visitor's language (Accept-Language), and its CSP allowing its one style. */
export function unknownPortalPage(acceptLanguage: string | undefined, csp: string) {
  const language = pageLanguage(acceptLanguage, languages) as Language;
  const texts = unknownPortalTexts[language];
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${texts.title}</title><style>${style}</style></head><body><main><h1>${texts.title}</h1><p>${texts.body}</p></main></body></html>`;
  return { html, csp: allowInline(csp, '', style) };
}

const cacheMillis = 30_000;

/**
 * Whether the tenant of the request's host exists: the web app's pages carry no tenant in their
 * path, so the host names it (as the web app reads it). Answers are cached briefly, like the API's.
 */
export function createHostTenantCheck(app: FastifyInstance) {
  const repository = createTenantRepository();
  const cache = new Map<string, { exists: boolean; at: number }>();
  return async (request: FastifyRequest): Promise<boolean> => {
    const id = ZTenantId.safeParse(tenantFromHostname(request.hostname));
    if (!id.success) return false;
    const now = Date.now();
    const cached = cache.get(id.data);
    if (cached && now - cached.at <= cacheMillis) return cached.exists;
    const row = await app.db.readTenant(id.data, (sql) => repository.findTenant(sql, id.data));
    if (cache.size > 10_000) cache.clear();
    cache.set(id.data, { exists: Boolean(row), at: now });
    return Boolean(row);
  };
}
