import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startSmtp } from '../tools/test-smtp.ts';
import { passwordField, signInWithForm } from './support/auth.ts';
import { authTexts as t, sessionsTexts } from './support/texts.ts';

/**
 * The provider's whole integration, as a real client would run it (issue 10): a fresh embedded
 * database, a tenant and an API key made with the admin CLI, a portal started on that database,
 * customers and invoices sent to the ingestion API, the invitation e-mail received over SMTP, the
 * password set from its link, and the ingested invoices seen in Chromium. Replaying the batch
 * changes nothing; a malformed batch writes nothing.
 *
 * The CLI on PostgreSQL is covered by apps/api/test/admin-cli.test.ts (both engines).
 */

const repo = fileURLToPath(new URL('..', import.meta.url));
/** Screenshots to look at (git-ignored), beside the gallery's. */
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const port = Number(process.env.E2E_PROVIDER_PORT ?? 3140);
const smtpPort = Number(process.env.E2E_PROVIDER_SMTP_PORT ?? 3146);
/** A database of its own: the embedded one, in a throw-away folder (the default of `npm start`). */
const dataDir = join(tmpdir(), `portal-e2e-provider-${port}`);
const tenant = 'acme';
const origin = `http://${tenant}.localhost:${port}`;
const api = `http://localhost:${port}/${tenant}/api/1.0`;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  APP_SECRET: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
};

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-ES' });

let server: ChildProcess | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let apiKey = '';

/** Runs the admin CLI as an operator would; fails the test with its stderr. */
function admin(...args: string[]): string {
  const run = spawnSync('npm', ['run', '-s', 'admin', '--', ...args], {
    cwd: repo,
    env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

async function adminCall(method: 'PUT' | 'POST', path: string, body: unknown) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rmSync(dataDir, { recursive: true, force: true });
  // The operator's order with the embedded database: the CLI first (it migrates the empty
  // folder), then the server, which owns the folder while it runs.
  admin(
    'tenant',
    'create',
    '--id',
    tenant,
    '--url',
    origin,
    '--company-name',
    'Club Náutico Acme',
    '--description',
    'Vela y remo en la bahía',
    '--primary-color',
    '0E7490',
    '--legal-name',
    'Club Náutico Acme, S.L.',
    '--contact-email',
    'socios@acme.test',
    '--mail-from',
    'Club Náutico Acme <socios@acme.test>',
    // A trial on the local simulator: the operator says so, and every screen shows it.
    '--test-mode',
  );
  apiKey = admin('api-key', 'create', '--tenant', tenant, '--name', 'ERP').trim();
  expect(apiKey).toMatch(/^ptk_[\w-]{43}$/);

  smtp = await startSmtp({ port: smtpPort });
  // node itself (tsx as a loader), not npx: SIGTERM must reach the server, not a wrapper.
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repo,
    env: {
      ...env,
      PORT: String(port),
      // The embedded database of a trial, not production (which refuses it, and needs PostgreSQL).
      NODE_ENV: 'test',
      SEED_DEMO: 'false',
      REDSYS_SIMULATOR: 'false',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OUTBOX_INTERVAL_SECONDS: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${api}/visual-config`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the portal did not start');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const customers = {
  customers: [
    {
      code: 'S-0042',
      email: 'marina@acme.test',
      name: 'Marina',
      last_name: 'Ortega Vidal',
      nif: '12345678Z',
      phone: '600123123',
      language: 'es',
    },
  ],
};

const invoice = (id: string, date: string, cents: number, paid: boolean) => ({
  id,
  customer_code: 'S-0042',
  invoice_date: date,
  base_cents: cents,
  vat_cents: Math.round(cents * 0.21),
  total_cents: cents + Math.round(cents * 0.21),
  lines: [
    {
      line_no: 1,
      concept: 'Cuota mensual vela',
      quantity: 1,
      unit_price_cents: cents,
      vat_rate: 21,
    },
  ],
  instalments: [
    {
      seq: 1,
      due_date: date,
      amount_cents: cents + Math.round(cents * 0.21),
      ...(paid ? { status: 'paid', paid_date: date } : {}),
    },
  ],
});

const invoices = {
  invoices: [
    invoice('ACME-2026-0101', '2026-09-01', 4500, true),
    invoice('ACME-2026-0102', '2026-10-01', 4500, true),
    invoice('ACME-2026-0103', '2026-11-01', 5200, false),
  ],
};

test('a batch sent by the provider reaches the customer, who is invited and sees it', async ({
  page,
}) => {
  const first = await adminCall('PUT', '/admin/customers', customers);
  expect(first.status, JSON.stringify(first.json)).toBe(200);
  expect(first.json).toMatchObject({ created: 1 });
  const sent = await adminCall('PUT', '/admin/invoices', invoices);
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  expect(sent.json).toMatchObject({ created: 3 });

  // Replaying both batches changes nothing.
  expect((await adminCall('PUT', '/admin/customers', customers)).json).toMatchObject({
    created: 0,
    updated: 0,
    unchanged: 1,
  });
  expect((await adminCall('PUT', '/admin/invoices', invoices)).json).toMatchObject({
    created: 0,
    updated: 0,
    unchanged: 3,
  });

  // A batch with one bad item is refused whole: its good invoice is not written either.
  const bad = await adminCall('PUT', '/admin/invoices', {
    invoices: [
      invoice('ACME-2026-0199', '2026-11-15', 1000, false),
      { ...invoice('ACME-2026-0200', '2026-11-15', 1000, false), customer_code: 'NOBODY' },
    ],
  });
  expect(bad.status).toBe(422);
  expect(JSON.stringify(bad.json.errors)).toContain('invoices.1.customer_code');

  // The invitation e-mail, sent by the outbox, carries a link to set a password.
  const mail = await smtp.waitFor('marina@acme.test', 30_000);
  const match =
    /(https?:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(mail.raw);
  expect(match?.[1], mail.raw.slice(0, 2000)).toBeTruthy();
  const link = (match?.[1] ?? '').replace(/&amp;/g, '&');
  expect(new URL(link).origin).toBe(origin);
  // In Spanish (the customer's language), branded with the tenant the CLI made.
  const html = /<html[\s\S]*<\/html>/i.exec(mail.raw)?.[0] ?? '';
  expect(html).toContain('Elegir mi contraseña');
  expect(html).toContain('Club Náutico Acme');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(html);
  await page.screenshot({ path: `${shots}provider-invitation-mail.png`, fullPage: true });

  await page.goto(link);
  const password = 'Vela-y-remo-2026!';
  await passwordField(page, t.fields.newPassword).fill(password);
  await passwordField(page, t.fields.confirmPassword).fill(password);
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.reset.successTitle })).toBeVisible();

  await signInWithForm(page, {
    tenant: { id: tenant, origin },
    email: 'marina@acme.test',
    password,
  });
  await expect(page).toHaveURL(`${origin}/home`);
  await expect(page.getByText('Club Náutico Acme').first()).toBeVisible();

  await page.goto(`${origin}/invoices`);
  for (const id of ['ACME-2026-0101', 'ACME-2026-0102', 'ACME-2026-0103']) {
    await expect(page.getByText(id)).toBeVisible();
  }
  await expect(page.getByText('ACME-2026-0199')).toHaveCount(0);
  // 52,00 € + 21 % = 62,92 €, the one still to pay.
  await expect(page.getByText(/62,92\s*€/).first()).toBeVisible();
  await page.screenshot({ path: `${shots}provider-invoices-390.png`, fullPage: true });
});

test('the customer changes her sign-in e-mail: the new address confirms it, then she signs in with it', async ({
  page,
  browser,
}) => {
  // Serial after the test above: Marina has her password and the portal its mail server.
  const password = 'Vela-y-remo-2026!';
  const e = sessionsTexts.emailChange;
  await signInWithForm(page, {
    tenant: { id: tenant, origin },
    email: 'marina@acme.test',
    password,
  });
  await page.goto(`${origin}/user-profile`);
  await page.getByRole('link', { name: t.profile.changeEmail }).click();
  await page.getByLabel(e.newEmail).fill('marina.lopez@acme.test');
  await passwordField(page, e.currentPassword).fill(password);
  await page.getByRole('button', { name: e.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: e.sentTitle })).toBeVisible();

  // The current address is told; the new one gets the link, which asks for a click.
  const notice = await smtp.waitFor('marina@acme.test', 30_000, 'email-change-notice');
  expect(notice.raw).toContain('marina.lopez@acme.test');
  const mail = await smtp.waitFor('marina.lopez@acme.test', 30_000, 'email-change');
  const link = /(https?:\/\/[^\s"<>]+\/confirm-email\?token=[\w-]+)/.exec(mail.raw)?.[1];
  if (!link) throw new Error(`no confirmation link in:\n${mail.raw.slice(0, 1500)}`);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: e.confirmTitle })).toBeVisible();
  await page.getByRole('button', { name: e.confirmButton }).click();
  await expect(page.getByRole('heading', { level: 1, name: e.confirmedTitle })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByRole('button', { name: e.confirmButton }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  // Another browser signs in with the new address.
  const other = await (await browser.newContext({ locale: 'es-ES' })).newPage();
  await signInWithForm(other, {
    tenant: { id: tenant, origin },
    email: 'marina.lopez@acme.test',
    password,
  });
  await expect(other).toHaveURL(`${origin}/home`);
});
