// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { expectNoViolationsAnywhere, screenVariants } from './support/axe.ts';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import type legalJson from '../apps/web/src/locales/es/legal.json';
import { accounts, signInThroughApi } from './support/auth.ts';
import { tenants } from './support/env.ts';

/**
 * The legal pages (spec §2 "Legal pages"): privacy, security, cookies and the accessibility
 * statement (issue 23), signed out and signed in, in Spanish and in English, filled with each
 * tenant's company identity and mailboxes, linked to each other and from the sign-in screen, and
 * free of axe violations at phone and desktop width in both themes.
 */

type LegalTexts = typeof legalJson;
const read = (language: string): LegalTexts =>
  JSON.parse(
    readFileSync(
      new URL(`../apps/web/src/locales/${language}/legal.json`, import.meta.url),
      'utf8',
    ),
  ) as LegalTexts;
const es = read('es');
const en = read('en');

type Legal = {
  name: string;
  tax_id: string;
  address: string;
  contact_email: string;
  privacy_email: string;
  dpo_email: string;
};

const expect = baseExpect.configure({ timeout: 15_000 });

/** The identity the API holds for a tenant (the pages must show exactly this). */
async function legalOf(page: Page, tenantId: string): Promise<Legal> {
  return page.evaluate(async (path) => {
    const answer = await fetch(path);
    return ((await answer.json()) as { legal: Legal }).legal;
  }, `/${tenantId}/api/1.0/visual-config`);
}

/** The numbered section headings of the page, without their numbers. */
async function sectionTitles(page: Page): Promise<string[]> {
  const headings = page.getByRole('article').getByRole('region').getByRole('heading', { level: 2 });
  return (await headings.allTextContents()).map((text) => text.replace(/^\d+\.\s*/, ''));
}

const related = (page: Page, t: LegalTexts) =>
  page.getByRole('navigation', { name: t.page.related });

async function expectMailLink(page: Page, email: string) {
  await expect(page.getByRole('link', { name: email, exact: true }).first()).toHaveAttribute(
    'href',
    `mailto:${email}`,
  );
}

test.use({ locale: 'es-ES', colorScheme: 'light' });

test('signed out, in Spanish: the three pages, their sections, the tenant and the cross-links', async ({
  page,
}) => {
  await page.goto(`${tenants.one.origin}/privacidad`);
  await expect(page.getByRole('heading', { level: 1, name: es.links.privacy.title })).toBeVisible();
  const legal = await legalOf(page, tenants.one.id);
  const p = es.privacy;
  expect(await sectionTitles(page)).toEqual([
    p.controller.title,
    p.company.title,
    p.principles.title,
    p.purposes.title,
    p.legalBasis.title,
    p.retention.title,
    p.rights.title,
    p.complaint.title,
  ]);
  const principles = page.getByRole('region', { name: p.principles.title });
  await expect(principles.getByRole('listitem')).toHaveCount(10);
  const company = page.getByRole('region', { name: p.company.title });
  for (const value of [legal.name, legal.tax_id, legal.address]) {
    await expect(company.getByText(value, { exact: true })).toBeVisible();
  }
  // Tenant 1 has a data protection officer in the demo data.
  expect(legal.dpo_email).not.toBe('');
  for (const email of [legal.contact_email, legal.privacy_email, legal.dpo_email]) {
    await expectMailLink(page, email);
  }
  await expect(
    page.getByRole('link', { name: new RegExp(p.complaint.link.slice(0, 30)) }),
  ).toHaveAttribute('href', 'https://www.aepd.es/');

  // The table of contents leads to each section.
  await page
    .getByRole('navigation', { name: es.page.onThisPage })
    .getByRole('link', { name: p.rights.title })
    .click();
  await expect(page).toHaveURL(/\/privacidad#derechos$/);
  await expect(page.getByRole('heading', { level: 2, name: p.rights.title })).toBeInViewport();

  await related(page, es).getByRole('link', { name: es.links.security.title }).click();
  await expect(page).toHaveURL(/\/seguridad$/);
  await expect(
    page.getByRole('heading', { level: 1, name: es.links.security.title }),
  ).toBeVisible();
  const s = es.security;
  expect(await sectionTitles(page)).toEqual([
    s.commitment.title,
    s.measures.title,
    s.sensitiveData.title,
    s.recommendations.title,
    s.incidents.title,
  ]);
  await expect(
    page.getByRole('region', { name: s.measures.title }).getByRole('listitem'),
  ).toHaveCount(6);
  await expect(
    page.getByRole('region', { name: s.sensitiveData.title }).getByRole('listitem'),
  ).toHaveCount(3);
  await expectMailLink(page, legal.contact_email);
  await expect(related(page, es).getByRole('link')).toHaveText([
    new RegExp(es.links.privacy.title),
    new RegExp(es.links.cookies.title),
    new RegExp(es.links.accessibility.title),
  ]);

  await related(page, es).getByRole('link', { name: es.links.cookies.title }).click();
  await expect(page).toHaveURL(/\/cookies$/);
  await expect(page.getByRole('heading', { level: 1, name: es.links.cookies.title })).toBeVisible();
  const acceptAll = page.getByRole('switch', { name: es.cookies.consent.acceptAll });
  await expect(acceptAll).toBeChecked();
  await expect(acceptAll).toBeDisabled();
  await acceptAll.click({ force: true });
  await expect(acceptAll).toBeChecked();
  await expectMailLink(page, legal.privacy_email);
  await expect(page.getByText(legal.name, { exact: false }).first()).toBeVisible();
  await expect(related(page, es).getByRole('link')).toHaveText([
    new RegExp(es.links.privacy.title),
    new RegExp(es.links.security.title),
    new RegExp(es.links.accessibility.title),
  ]);
  await related(page, es).getByRole('link', { name: es.links.privacy.title }).click();
  await expect(page).toHaveURL(/\/privacidad$/);
});

test('signed in, in English, on tenant demo: its own company and mailboxes, no DPO', async ({
  page,
}) => {
  const account = accounts.clienteDemo;
  await page.addInitScript(() => localStorage.setItem('language', 'en'));
  await signInThroughApi(page, account);
  const legal = await legalOf(page, account.tenant.id);
  expect(legal.dpo_email).toBe('');

  await page.goto(`${account.tenant.origin}/cookies`);
  await expect(page.getByRole('heading', { level: 1, name: en.links.cookies.title })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The signed-in frame: the legal pages are shown inside it, not as a visitor's page.
  await expect(page.getByRole('link', { name: /notifications/i }).first()).toBeVisible();
  const acceptAll = page.getByRole('switch', { name: en.cookies.consent.acceptAll });
  await expect(acceptAll).toBeChecked();
  await expect(acceptAll).toBeDisabled();
  await expectMailLink(page, legal.privacy_email);

  await related(page, en).getByRole('link', { name: en.links.privacy.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.links.privacy.title })).toBeVisible();
  const company = page.getByRole('region', { name: en.privacy.company.title });
  for (const value of [legal.name, legal.tax_id, legal.address]) {
    await expect(company.getByText(value, { exact: true })).toBeVisible();
  }
  await expectMailLink(page, legal.contact_email);
  await expect(page.getByText(en.identity.dpoEmail)).toHaveCount(0);
  await expect(
    page.getByRole('heading', { level: 2, name: en.privacy.complaint.title }),
  ).toBeVisible();

  await related(page, en).getByRole('link', { name: en.links.security.title }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: en.links.security.title }),
  ).toBeVisible();
  await expectMailLink(page, legal.contact_email);
  // Still signed in after moving around.
  expect(
    await page.evaluate(() => Boolean(localStorage.getItem('auth')?.includes('accessToken'))),
  ).toBe(true);
});

test('the side menu leads to the legal pages', async ({ page }) => {
  await page.goto(`${tenants.one.origin}/login`);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  // The menu's link (/login also has the legal links in its footer).
  await page
    .getByRole('navigation', { name: 'Menú' })
    .getByRole('link', { name: 'Privacidad' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: es.links.privacy.title })).toBeVisible();
});

test('/login does not download the legal texts', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${tenants.one.origin}/login`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(
    scripts.filter((path) => /\/(legal|privacy-policy|cookie-policy|security-policy)/.test(path)),
  ).toEqual([]);
});

test('the accessibility statement, from the menu: its sections, the review date and the mailbox (issue 23)', async ({
  page,
}) => {
  await page.goto(`${tenants.demo.origin}/login`);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  // The menu's link (/login also has the legal links in its footer).
  await page
    .getByRole('navigation', { name: 'Menú' })
    .getByRole('link', { name: 'Accesibilidad' })
    .click();
  await expect(page).toHaveURL(/\/accesibilidad$/);
  await expect(
    page.getByRole('heading', { level: 1, name: es.links.accessibility.title }),
  ).toBeVisible();
  const a = es.accessibility;
  expect(await sectionTitles(page)).toEqual([
    a.status.title,
    a.nonAccessible.title,
    a.preparation.title,
    a.contact.title,
    a.enforcement.title,
    a.measures.title,
  ]);
  await expect(page.getByText('26/11/2026', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('parcialmente conforme', { exact: false })).toBeVisible();
  const legal = await legalOf(page, tenants.demo.id);
  await expectMailLink(page, legal.contact_email);
  await related(page, es).getByRole('link', { name: es.links.privacy.title }).click();
  await expect(page).toHaveURL(/\/privacidad$/);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`the sign-in screen links the accessibility statement beside the other legal pages, at ${viewport.width} px`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${tenants.one.origin}/login`);
    const footer = page.getByRole('navigation', { name: 'Legal' });
    await expect(footer.getByRole('link')).toHaveText([
      'Privacidad',
      'Política de cookies',
      'Accesibilidad',
    ]);
    await footer.getByRole('link', { name: 'Accesibilidad' }).click();
    await expect(page).toHaveURL(/\/accesibilidad$/);
    await expect(
      page.getByRole('heading', { level: 1, name: es.links.accessibility.title }),
    ).toBeVisible();
    await expect(page.getByText(es.accessibility.measures.items.keyboard)).toBeVisible();
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`no axe violations on the legal pages, ${colorScheme}, at 390 and 1280 px`, async ({
    page,
  }) => {
    // Tenant `demo` in dark mode: the other primary colour on the other background.
    const tenant = colorScheme === 'light' ? tenants.one : tenants.demo;
    const variants = screenVariants.filter((v) => v.colorScheme === colorScheme);
    for (const [path, title] of [
      ['/privacidad', es.links.privacy.title],
      ['/seguridad', es.links.security.title],
      ['/cookies', es.links.cookies.title],
      ['/accesibilidad', es.links.accessibility.title],
    ] as const) {
      await page.goto(`${tenant.origin}${path}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expectNoViolationsAnywhere(page, path, variants);
    }
  });
}
