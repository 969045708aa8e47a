import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations, showAs, type ScreenVariant } from './support/axe.ts';
import { signInThroughApi } from './support/auth.ts';
import { e2ePort } from './support/env.ts';
import { useOwnPortal } from './support/own-portal.ts';
import { fillText, notificationsTexts } from './support/texts.ts';

/**
 * Issue 23, item 1: fiscal data changes are a request the organisation reviews. The customer asks
 * from the profile (a bad tax id is refused), sees the request "Pendiente de revisión", the
 * organisation approves or rejects it through the integration API with a key the admin CLI made,
 * and the customer sees the new data, the outcome, the notification and the e-mail; a withdrawn
 * request cannot be decided. A portal of its own (like provider-integration.spec.ts): the API key
 * is made with the CLI on its embedded database before the portal starts.
 */

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const takeScreenshots = process.env.GALLERY_SCREENSHOTS === '1';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-ES' });

const portal = useOwnPortal({
  // Not +80: the main server's Redsys simulator listens on 3180 (playwright.config.ts).
  port: Number(process.env.E2E_FISCAL_PORT ?? e2ePort + 50),
  smtpPort: Number(process.env.E2E_FISCAL_SMTP_PORT ?? e2ePort + 55),
  tenant: 'fiscal',
  tenantArgs: [
    '--company-name',
    'Escuela de Música Fiscal',
    '--description',
    'Lenguaje musical e instrumento',
    '--primary-color',
    '9D174D',
    '--legal-name',
    'Escuela de Música Fiscal, S.L.',
    '--contact-email',
    'secretaria@fiscal.test',
    '--mail-from',
    'Escuela de Música Fiscal <secretaria@fiscal.test>',
  ],
  env: { OUTBOX_INTERVAL_SECONDS: '1' },
});
const { tenant, origin, api, call } = portal;

type FiscalTexts = {
  card: Record<string, string>;
  form: { fields: Record<string, string> } & Record<string, string>;
  errors: Record<string, string>;
};
const f = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/fiscal-data.json', import.meta.url), 'utf8'),
) as FiscalTexts;
const events = (
  notificationsTexts as unknown as { events: { fiscalDataReviewed: Record<string, string> } }
).events.fiscalDataReviewed;

const customer = {
  tenant: { id: tenant, origin },
  email: 'nuria@fiscal.test',
  password: 'Pentagrama-y-clave-2026!',
};

type AdminRequest = { id: string; status: string; requested: Record<string, string> };
async function pendingRequest(): Promise<AdminRequest> {
  const list = await call('GET', '/admin/fiscal-data-requests?status=pending');
  expect(list.status).toBe(200);
  const [request] = list.json.requests as AdminRequest[];
  if (!request) throw new Error('no pending request');
  return request;
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // The provider sends the customer; she sets her password from the invitation.
  const sent = await call('PUT', '/admin/customers', {
    customers: [
      {
        code: 'M-0007',
        email: customer.email,
        name: 'Núria',
        last_name: 'Casals Ferrer',
        nif: '12345678Z',
        address: 'Carrer de la Pau 3',
        city: 'Valencia',
        country: 'España',
        language: 'es',
      },
    ],
  });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  const mail = await portal.smtp.waitFor(customer.email, 30_000);
  const link = /reset-password\?token=([\w-]+)/.exec(mail.raw);
  if (!link?.[1]) throw new Error(`no invitation link in:\n${mail.raw.slice(0, 1500)}`);
  const reset = await fetch(`${api}/reset-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: link[1],
      email: customer.email,
      password: customer.password,
      password_confirmation: customer.password,
    }),
  });
  expect(reset.status, await reset.text()).toBeLessThan(300);
  if (takeScreenshots) mkdirSync(shots, { recursive: true });
});

const fiscalCard = (page: Page) => page.getByRole('region', { name: 'Datos fiscales' });

/** Axe, and a picture to look at, of the profile as it stands, at both sizes and themes. */
async function checkProfile(page: Page, name: string) {
  const variants: ScreenVariant[] = [
    { width: 390, height: 844, colorScheme: 'light' },
    { width: 390, height: 844, colorScheme: 'dark' },
    { width: 1280, height: 800, colorScheme: 'dark' },
    { width: 1280, height: 800, colorScheme: 'light' },
  ];
  const start = page.viewportSize() ?? { width: 390, height: 844 };
  for (const variant of variants) {
    const label = `fiscal-${name}-${variant.width}-${variant.colorScheme}`;
    await showAs(page, variant);
    const overflow = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow, `${label}: wider than the screen`).toBeLessThanOrEqual(0);
    await expectNoViolations(page, label);
    if (takeScreenshots) await page.screenshot({ path: `${shots}${label}.png`, fullPage: true });
  }
  await showAs(page, { ...start, colorScheme: 'light' });
}

test('at 390x844: a bad tax id is refused, the request shows pending, the organisation approves it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughApi(page, customer);
  await page.goto(`${origin}/user-profile`);
  const card = fiscalCard(page);
  await expect(card.getByText('12345678Z')).toBeVisible();
  await card.getByRole('link', { name: f.card.requestLabel }).click();
  await expect(page.getByRole('heading', { level: 1, name: f.form.title })).toBeVisible();

  // A NIF whose letter does not match: refused on the screen, nothing is sent.
  const nif = page.getByLabel(f.form.fields.nif ?? '');
  await nif.fill('12345678A');
  await page.getByRole('button', { name: f.form.submit }).click();
  await expect(page.getByText(f.errors.invalidNif ?? '')).toBeVisible();
  await expect(nif).toHaveAttribute('aria-invalid', 'true');
  expect((await call('GET', '/admin/fiscal-data-requests')).json.requests).toEqual([]);

  // The server refuses it too, with its field code.
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('auth') ?? '{}') as { accessToken?: string }).accessToken,
  );
  const refused = await page.evaluate(
    async ({ url, token: bearer }) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer ?? ''}` },
        body: JSON.stringify({
          invoice_name: 'Casals Ferrer Música SL',
          nif: 'B12345675',
          address: 'Carrer de la Pau 3',
          city: 'Valencia',
          country: 'España',
        }),
      });
      return { status: res.status, body: (await res.json()) as { errors?: { nif?: string[] } } };
    },
    { url: `/${tenant}/api/1.0/user/fiscal-data-requests`, token },
  );
  expect(refused.status).toBe(422);
  expect(refused.body.errors?.nif).toEqual(['invalid_nif']);

  await page.getByLabel(f.form.fields.invoice_name ?? '').fill('Casals Ferrer Música SL');
  await nif.fill('b-1234567.4');
  await page.getByLabel(/Comentario para/).fill('Facturad a la sociedad desde enero.');
  await page.getByRole('button', { name: f.form.submit }).click();

  // Back on the profile: the request, pending review; the data as it was.
  await expect(page).toHaveURL(`${origin}/user-profile`);
  const pending = card.getByRole('region', { name: f.card.pendingTitle });
  await expect(pending.getByText(f.card.pendingBadge ?? '')).toBeVisible();
  await expect(pending.getByText('B12345674')).toBeVisible();
  await expect(pending.getByText('Facturad a la sociedad desde enero.')).toBeVisible();
  await expect(card.getByRole('link', { name: f.card.requestLabel })).toHaveCount(0);
  await expect(card.getByText('12345678Z')).toBeVisible();
  await checkProfile(page, 'pending');

  // The organisation approves it through the integration API.
  const request = await pendingRequest();
  expect(request.requested).toMatchObject({ nif: 'B12345674' });
  const approved = await call('POST', `/admin/fiscal-data-requests/${request.id}/decision`, {
    decision: 'approved',
  });
  expect(approved.status, JSON.stringify(approved.json)).toBe(200);
  const twice = await call('POST', `/admin/fiscal-data-requests/${request.id}/decision`, {
    decision: 'approved',
  });
  expect(twice.status).toBe(409);
  expect(twice.json.code).toBe('fiscal_request_closed');

  await page.reload();
  await expect(card.getByText('Casals Ferrer Música SL')).toBeVisible();
  await expect(card.getByText('B12345674')).toBeVisible();
  await expect(card.getByRole('region', { name: f.card.approvedTitle })).toBeVisible();
  await checkProfile(page, 'approved');

  // The notification, worded by the app, and the e-mail.
  await page.goto(`${origin}/my-notifications`);
  await expect(page.getByText(events.approved ?? '').first()).toBeVisible();
  const mail = await portal.smtp.waitFor(customer.email, 30_000, 'fiscal-data-approved');
  expect(mail.raw).toContain('Casals Ferrer Música SL');
});

test('at 1280x800: the organisation rejects with a reason; a withdrawn request cannot be decided', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, customer);
  await page.goto(`${origin}/user-profile`);
  const card = fiscalCard(page);
  // The last outcome is hidden on request.
  await card.getByRole('button', { name: f.card.dismissLabel }).click();
  await expect(card.getByRole('region', { name: f.card.approvedTitle })).toHaveCount(0);

  const ask = async (address: string) => {
    await card.getByRole('link', { name: f.card.requestLabel }).click();
    await page.getByLabel(f.form.fields.address ?? '').fill(address);
    await page.getByRole('button', { name: f.form.submit }).click();
    await expect(card.getByRole('region', { name: f.card.pendingTitle })).toBeVisible();
  };

  // Asked and withdrawn: the organisation can no longer decide it.
  await ask('Avinguda del Port 10');
  const withdrawn = await pendingRequest();
  await card.getByRole('button', { name: f.card.withdraw }).click();
  await expect(card.getByRole('region', { name: f.card.pendingTitle })).toHaveCount(0);
  await expect(card.getByRole('link', { name: f.card.requestLabel })).toBeVisible();
  const late = await call('POST', `/admin/fiscal-data-requests/${withdrawn.id}/decision`, {
    decision: 'approved',
  });
  expect(late.status).toBe(409);
  expect(late.json.code).toBe('fiscal_request_closed');

  // Asked again and rejected with a reason, which the customer reads.
  await ask('Carrer de Colón 22');
  const request = await pendingRequest();
  const reason = 'La dirección fiscal debe coincidir con la del CIF.';
  const rejected = await call('POST', `/admin/fiscal-data-requests/${request.id}/decision`, {
    decision: 'rejected',
    reason,
  });
  expect(rejected.status, JSON.stringify(rejected.json)).toBe(200);
  await page.reload();
  const outcome = card.getByRole('region', { name: f.card.rejectedTitle });
  await expect(outcome.getByText(reason)).toBeVisible();
  await expect(card.getByText('Carrer de la Pau 3')).toBeVisible();
  await checkProfile(page, 'rejected');

  await page.goto(`${origin}/my-notifications`);
  await expect(page.getByText(fillText(events.rejectedMessage ?? '', { reason }))).toBeVisible();
  const mail = await portal.smtp.waitFor(customer.email, 30_000, 'fiscal-data-rejected');
  expect(mail.raw).toContain(reason);
});
