// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import {
  test as base,
  type Browser,
  type BrowserContext,
  expect as baseExpect,
  type Page,
} from '@playwright/test';
import type invoicesJson from '../../apps/web/src/locales/es/invoices.json';
import { demoPassword, signInThroughApi } from './auth.ts';
import { tenants } from './env.ts';

/**
 * Shared set-up of the invoice, payment and home journeys (e2e/invoices*.spec.ts).
 *
 * Sign-in is rate limited per account (10 in 15 minutes) and the refresh cookie rotates at every
 * page load, so a signed-in browser context is made once per worker and tenant for the demo
 * customer `cliente@demo.test` (five years of invoices) and reused by that worker's tests, one
 * after another: two sign-ins per tenant for the whole run.
 */

export type Tenant = (typeof tenants)[keyof typeof tenants];
export { tenants };

/** The shape of the screens' texts, typed from the Spanish file itself. */
type InvoicesTexts = typeof invoicesJson;

/** The Spanish texts of the screens, read from the app's own locale file. */
export const t = JSON.parse(
  readFileSync(new URL('../../apps/web/src/locales/es/invoices.json', import.meta.url), 'utf8'),
) as InvoicesTexts;

/** `{{name}}` placeholders filled in. */
export const fill = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => String(values[key] ?? ''));

/** Escapes text for a RegExp. */
export const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const customer = {
  email: 'cliente@demo.test',
  password: demoPassword,
  name: 'Laura García Martín',
};

async function signedInContext(browser: Browser, tenant: Tenant): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'es-ES',
    colorScheme: 'light',
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await signInThroughApi(page, { tenant, email: customer.email, password: customer.password });
  await page.close();
  return context;
}

type WorkerFixtures = { customerContext: (tenant: Tenant) => Promise<BrowserContext> };
type TestFixtures = {
  /** A new page, signed in as the demo customer on `tenant` (tenant `1` by default). */
  openAs: (tenant?: Tenant) => Promise<Page>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  customerContext: [
    async ({ browser }, use) => {
      const contexts = new Map<string, Promise<BrowserContext>>();
      await use((tenant) => {
        let context = contexts.get(tenant.id);
        if (!context) {
          context = signedInContext(browser, tenant);
          contexts.set(tenant.id, context);
        }
        return context;
      });
      for (const context of contexts.values()) await (await context).close();
    },
    { scope: 'worker' },
  ],
  openAs: async ({ customerContext }, use) => {
    const pages: Page[] = [];
    await use(async (tenant = tenants.one) => {
      const page = await (await customerContext(tenant)).newPage();
      pages.push(page);
      return page;
    });
    for (const page of pages) await page.close();
  },
});

/** Two servers and three workers share two cores: a screen may take a few seconds to load. */
export const expect = baseExpect.configure({ timeout: 15_000 });

/** The access token the app holds now (it refreshes at every page load). */
export async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('auth'));
  return (JSON.parse(raw ?? '{}') as { accessToken?: string }).accessToken ?? '';
}

type ListItem = {
  invoice_id: string;
  invoice_date: string;
  status: number;
  amount: number;
  total: number;
};

/** Every invoice of the signed-in customer on the page's tenant, newest first, via the API. */
export async function allInvoices(page: Page, tenant: Tenant): Promise<ListItem[]> {
  const token = await accessToken(page);
  return page.evaluate(
    async ({ path, token }) => {
      const invoices: ListItem[] = [];
      for (let number = 1; ; number++) {
        const answer = await fetch(path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ datefrom: '19000101', dateto: '20991231', page: String(number) }),
        });
        if (!answer.ok) throw new Error(`/invoices answered ${answer.status}`);
        const body = (await answer.json()) as { invoices: ListItem[]; has_more: boolean };
        invoices.push(...body.invoices);
        if (!body.has_more) return invoices;
      }
    },
    { path: `/${tenant.id}/api/1.0/invoices`, token },
  );
}

/** Status and content type of a GET from the page (same origin, the page's cookies). */
export async function headOf(page: Page, url: string): Promise<{ status: number; type: string }> {
  return page.evaluate(async (address) => {
    const answer = await fetch(address);
    return { status: answer.status, type: answer.headers.get('content-type') ?? '' };
  }, url);
}

/** `47,19 €` (es-ES, any kind of space) -> cents. */
export function parseEuros(text: string): number {
  const match = /(-?[\d.]+,\d{2})\s*€/.exec(text.replace(/\u00a0/g, ' '));
  if (!match?.[1]) throw new Error(`No amount in ${text}`);
  return Math.round(Number(match[1].replace(/\./g, '').replace(',', '.')) * 100);
}

/** Cents -> `47,19 €` with the no-break space Intl writes. */
export function formatEuros(cents: number): string {
  return `${new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100)}\u00a0€`;
}
