import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiKeyPattern, ZVisualConfig } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { findApiKey } from '../src/modules/admin/api-keys.ts';
import { findProvider } from '../src/modules/auth/oidc.ts';
import { createPaymentRepository } from '../src/modules/payments/repository.ts';
import { runAdmin } from '../src/modules/tenants/admin/cli.ts';
import { buildTestApp, engines } from './engines.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The public Redsys test key (Redsys' integration guides): base64 of 24 bytes, as V1 needs. */
const redsysKey = 'sq7HjrUOBfKmC576ILgskD5srU870gJ7';
const pngLogo = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a tiny fake PNG body'),
]);

/** Files the commands may read, kept in memory (a missing one fails as the disk would). */
const files: Record<string, Uint8Array> = {
  '/in/logo.png': pngLogo,
  '/in/logo.svg': pngLogo,
  '/in/big.png': Buffer.concat([pngLogo, Buffer.alloc(600 * 1024)]),
  '/in/redsys.key': Buffer.from(`${redsysKey}\n`),
  '/in/not-a-v1.key': Buffer.from('short\n'),
};

async function readFile(path: string): Promise<Uint8Array> {
  const bytes = files[path];
  if (!bytes) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return bytes;
}

const everyField = [
  ['--description', 'Club de remo del puerto'],
  ['--logo', '/in/logo.png'],
  ['--primary-color', '#1a2b3c'],
  ['--legal-name', 'Acme Remo SL'],
  ['--legal-nif', 'B-1234567-4'],
  ['--legal-address', 'Moll de la Fusta 1, 08002 Barcelona'],
  ['--contact-email', 'secretaria@acme.example'],
  ['--privacy-email', 'privacidad@acme.example'],
  ['--dpo-email', 'dpo@acme.example'],
  ['--phone', '+34 93 000 00 01'],
  ['--website', 'https://acme.example/remo'],
  ['--opening-hours', 'L-V 8:00-21:00'],
  ['--mail-from', 'Acme Remo <no-reply@acme.example>'],
  ['--bank-iban', 'ES91 2100 0418 4502 0005 1332'],
  ['--bank-beneficiary', 'Acme Remo SL'],
  ['--redsys-environment', 'test'],
  ['--redsys-merchant-code', '999008881'],
  ['--redsys-terminal', '7'],
  ['--redsys-key-file', '/in/redsys.key'],
  ['--redsys-signature-versions', 'HMAC_SHA512_V2, HMAC_SHA256_V1'],
  ['--redsys-pay-methods', 'C,z'],
].flat();

/** `oidc set` for the demo tenant's Google sign-in, with the given issuer. */
const oidcSetWithIssuer = (issuer: string): string[] => [
  'oidc',
  'set',
  '--tenant',
  'demo',
  '--provider',
  'google',
  '--issuer',
  issuer,
  '--client-id',
  'c',
];

describe.each(engines())('the tenant administration CLI on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const rootSecret = randomBytes(32);

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, {}, rootSecret);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  async function admin(argv: string[], stdin = '', options: { production?: boolean } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      db,
      rootSecret,
      ...options,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      readFile,
      readStdin: async () => stdin,
    });
    return { code, out, err, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  /** Everything the tenant tables hold, as one text: equal before and after means nothing written. */
  const fingerprint = () =>
    db.withOwner(async (sql) => {
      const [row] = await sql.query<{ all: string }>(
        `SELECT (SELECT string_agg(t::text, '|' ORDER BY id) FROM tenants t)
             || (SELECT coalesce(string_agg(p::text, '|' ORDER BY tenant_id, provider), '')
                   FROM tenant_sign_in_providers p)
             || (SELECT coalesce(string_agg(k::text, '|' ORDER BY tenant_id, id), '') FROM api_keys k)
             AS all`,
      );
      return row?.all;
    });

  const tenantColumns = (id: string) =>
    db.withOwner(async (sql) => {
      const [row] = await sql.query<Record<string, unknown>>(
        'SELECT * FROM tenants WHERE id = $1',
        [id],
      );
      return row;
    });

  it('creates a tenant with every field, and the portal answers its branding', async () => {
    const res = await admin([
      'tenant',
      'create',
      '--id',
      'acme',
      '--url',
      'https://acme.portal.example/',
      '--company-name',
      'Acme Remo',
      ...everyField,
    ]);
    expect(res.stderr).not.toContain('error');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Created tenant acme');

    const visual = await app.inject({ method: 'GET', url: '/acme/api/1.0/visual-config' });
    expect(visual.statusCode).toBe(200);
    const body = ZVisualConfig.parse(visual.json());
    expect(body).toMatchObject({
      company_name: 'Acme Remo',
      description: 'Club de remo del puerto',
      primary_color: '1A2B3C',
      sign_in_providers: [],
      testing_mode: false,
      legal: {
        name: 'Acme Remo SL',
        tax_id: 'B12345674',
        address: 'Moll de la Fusta 1, 08002 Barcelona',
        contact_email: 'secretaria@acme.example',
        privacy_email: 'privacidad@acme.example',
        dpo_email: 'dpo@acme.example',
        phone: '+34 93 000 00 01',
        website: 'https://acme.example/remo',
        opening_hours: 'L-V 8:00-21:00',
      },
    });
    const logo = await app.inject({ method: 'GET', url: body.logo_url ?? '' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(pngLogo)).toBe(true);

    const row = await tenantColumns('acme');
    expect(row).toMatchObject({
      canonical_url: 'https://acme.portal.example',
      mail_from: 'Acme Remo <no-reply@acme.example>',
      bank_iban: 'ES9121000418450200051332',
      bank_beneficiary: 'Acme Remo SL',
      redsys_environment: 'test',
      redsys_merchant_code: '999008881',
      redsys_terminal: '7',
      redsys_signature_versions: ['HMAC_SHA512_V2', 'HMAC_SHA256_V1'],
      redsys_pay_methods: ['C', 'z'],
    });
  });

  it('seals the Redsys key: only the payment path, with this APP_SECRET, opens it', async () => {
    const row = await tenantColumns('acme');
    const stored = String(row?.redsys_secret_key);
    expect(stored.startsWith('enc:v1:')).toBe(true);
    expect(stored).not.toContain(redsysKey);

    const gateway = await db.withTenant('acme', (sql) =>
      createPaymentRepository(createSecretBox(rootSecret)).gateway(sql),
    );
    expect(gateway?.redsys_secret_key).toBe(redsysKey);
    await expect(
      db.withTenant('acme', (sql) =>
        createPaymentRepository(createSecretBox(randomBytes(32))).gateway(sql),
      ),
    ).rejects.toThrow(/does not open with this APP_SECRET/);
  });

  it('shows a tenant without any secret', async () => {
    const text = await admin(['tenant', 'show', '--id', 'acme']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/redsys-key\s+set/);
    const json = await admin(['tenant', 'show', '--id', 'acme', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: 'acme',
      redsys_secret_key: 'set',
      logo: { mime: 'image/png', bytes: pngLogo.length },
    });
    for (const output of [text.stdout, json.stdout]) {
      expect(output).not.toContain(redsysKey);
      expect(output).not.toContain('enc:v1:');
    }
    const unknown = await admin(['tenant', 'show', '--id', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--id: no tenant nobody');
  });

  it('updates only the fields given', async () => {
    const before = await tenantColumns('acme');
    const res = await admin([
      'tenant',
      'update',
      '--id',
      'acme',
      '--primary-color',
      '00aa00',
      '--dpo-email',
      '',
    ]);
    expect(res.code).toBe(0);
    const after = await tenantColumns('acme');
    const changed = Object.keys(after ?? {}).filter(
      (k) => JSON.stringify(after?.[k]) !== JSON.stringify(before?.[k]),
    );
    expect(changed.sort()).toEqual(['dpo_email', 'primary_color', 'updated_at']);
    expect(after).toMatchObject({ primary_color: '00AA00', dpo_email: '' });
  });

  it('turns sign-in by link off and on, and show says which', async () => {
    expect((await admin(['tenant', 'update', '--id', 'acme', '--sign-in-link', 'off'])).code).toBe(
      0,
    );
    expect(await tenantColumns('acme')).toMatchObject({ sign_in_link: false });
    expect((await admin(['tenant', 'show', '--id', 'acme'])).stdout).toMatch(/sign-in-link\s+off/);
    const refused = await admin(['tenant', 'update', '--id', 'acme', '--sign-in-link', 'maybe']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--sign-in-link');
    expect((await admin(['tenant', 'update', '--id', 'acme', '--sign-in-link', 'on'])).code).toBe(
      0,
    );
    expect(await tenantColumns('acme')).toMatchObject({ sign_in_link: true });
  });

  it('sets the SEPA creditor identifier (check digits verified), shows it and clears it', async () => {
    const update = (value: string) =>
      admin(['tenant', 'update', '--id', 'acme', '--sepa-creditor-id', value]);
    const set = await update('es11 zzz b12345674');
    expect(set.code, set.stderr).toBe(0);
    expect(await tenantColumns('acme')).toMatchObject({ sepa_creditor_id: 'ES11ZZZB12345674' });
    expect((await admin(['tenant', 'show', '--id', 'acme'])).stdout).toMatch(
      /sepa-creditor-id\s+ES11ZZZB12345674/,
    );
    const before = await fingerprint();
    const refused = await update('ES12ZZZB12345674');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--sepa-creditor-id');
    expect(await fingerprint()).toBe(before);
    expect((await update('')).code).toBe(0);
    expect(await tenantColumns('acme')).toMatchObject({ sepa_creditor_id: '' });
  });

  it('warns when the URL would show another tenant', async () => {
    const res = await admin([
      'tenant',
      'create',
      '--id',
      'club',
      '--url',
      'https://portal.club.example',
      '--company-name',
      'Club',
    ]);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/warning: --url .* shows tenant "portal"/);
  });

  it.each([
    [
      'a bad colour',
      [
        'tenant',
        'create',
        '--id',
        'new1',
        '--url',
        'https://new1.example',
        '--company-name',
        'N',
        '--primary-color',
        'red',
      ],
      '--primary-color',
    ],
    [
      'a bad IBAN',
      [
        'tenant',
        'create',
        '--id',
        'new1',
        '--url',
        'https://new1.example',
        '--company-name',
        'N',
        '--bank-iban',
        'ES91 2100 0418 4502 0005 1333',
      ],
      '--bank-iban',
    ],
    [
      'a bad NIF',
      [
        'tenant',
        'create',
        '--id',
        'new1',
        '--url',
        'https://new1.example',
        '--company-name',
        'N',
        '--legal-nif',
        '12345678A',
      ],
      '--legal-nif',
    ],
    [
      'an unknown option',
      [
        'tenant',
        'create',
        '--id',
        'new1',
        '--url',
        'https://new1.example',
        '--company-name',
        'N',
        '--colour',
        '000000',
      ],
      '--colour',
    ],
    ['no --url on create', ['tenant', 'create', '--id', 'new1', '--company-name', 'N'], '--url'],
    [
      'a duplicate id',
      ['tenant', 'create', '--id', 'demo', '--url', 'https://demo.example', '--company-name', 'N'],
      '--id',
    ],
    [
      'a bad tenant id',
      ['tenant', 'create', '--id', 'New_1', '--url', 'https://new1.example', '--company-name', 'N'],
      '--id',
    ],
    [
      'an http URL',
      ['tenant', 'create', '--id', 'new1', '--url', 'http://new1.example', '--company-name', 'N'],
      '--url',
    ],
    [
      'a URL that does not parse',
      ['tenant', 'create', '--id', 'new1', '--url', 'new1 example', '--company-name', 'N'],
      '--url',
    ],
    ['an http issuer', oidcSetWithIssuer('http://accounts.example'), '--issuer'],
    ['an issuer that does not parse', oidcSetWithIssuer('accounts google'), '--issuer'],
    [
      'a logo over 512 KiB',
      ['tenant', 'update', '--id', 'demo', '--logo', '/in/big.png'],
      '--logo',
    ],
    [
      'a logo named as another type',
      ['tenant', 'update', '--id', 'demo', '--logo', '/in/logo.svg'],
      '--logo',
    ],
    [
      'a missing key file',
      ['tenant', 'update', '--id', 'demo', '--redsys-key-file', '/in/none'],
      '--redsys-key-file',
    ],
    [
      'a V1 key that is not 24 bytes',
      [
        'tenant',
        'update',
        '--id',
        'demo',
        '--description',
        'x',
        '--redsys-key-file',
        '/in/not-a-v1.key',
      ],
      '--redsys-key-file',
    ],
    [
      'an unknown signature version',
      ['tenant', 'update', '--id', 'demo', '--redsys-signature-versions', 'HMAC_SHA256_V9'],
      '--redsys-signature-versions',
    ],
    [
      'one bad field among good ones',
      ['tenant', 'update', '--id', 'demo', '--description', 'changed', '--contact-email', 'nope'],
      '--contact-email',
    ],
    [
      'a secret on the command line',
      ['tenant', 'update', '--id', 'demo', `--redsys-key=${redsysKey}`],
      '--redsys-key-file',
    ],
    ['an unknown tenant', ['tenant', 'update', '--id', 'nobody', '--description', 'x'], '--id'],
    [
      'a telephone with letters',
      ['tenant', 'update', '--id', 'demo', '--phone', 'call us'],
      '--phone',
    ],
    [
      'a telephone of 5 digits',
      ['tenant', 'update', '--id', 'demo', '--phone', '12345'],
      '--phone',
    ],
    [
      'a website over http',
      ['tenant', 'update', '--id', 'demo', '--website', 'http://demo.example'],
      '--website',
    ],
    [
      'a javascript: website',
      ['tenant', 'update', '--id', 'demo', '--website', 'javascript:alert(1)'],
      '--website',
    ],
    [
      'opening hours with a control character',
      ['tenant', 'update', '--id', 'demo', '--opening-hours', 'L-V\u0007'],
      '--opening-hours',
    ],
  ])('refuses %s, naming the option, and writes nothing', async (_, argv, option) => {
    const before = await fingerprint();
    const res = await admin(argv);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(option);
    expect(res.stderr).not.toContain(redsysKey);
    expect(res.stdout).toBe('');
    expect(await fingerprint()).toBe(before);
  });

  it('checks a new Redsys key against the stored signature versions', async () => {
    const before = await fingerprint();
    const res = await admin(['tenant', 'update', '--id', 'demo', '--redsys-key-stdin'], 'short\n');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--redsys-key-stdin: the key cannot sign with HMAC_SHA256_V1/);
    expect(await fingerprint()).toBe(before);

    const ok = await admin(
      ['tenant', 'update', '--id', 'demo', '--redsys-key-stdin'],
      `${redsysKey}\n`,
    );
    expect(ok.code).toBe(0);
    const gateway = await db.withTenant('demo', (sql) =>
      createPaymentRepository(createSecretBox(rootSecret)).gateway(sql),
    );
    // The trailing newline of stdin is not part of the key.
    expect(gateway?.redsys_secret_key).toBe(redsysKey);
  });

  it('creates an API key shown once, stores only its hash, and revokes it', async () => {
    const res = await admin(['api-key', 'create', '--tenant', 'acme', '--name', 'ERP sync']);
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    const key = res.out[0] ?? '';
    expect(key).toMatch(apiKeyPattern);
    expect(res.stderr).not.toContain(key);

    const stored = await db.withOwner((sql) =>
      sql.query<{ id: string; name: string; key_hash: Uint8Array; row: string }>(
        "SELECT id, name, key_hash, k::text AS row FROM api_keys k WHERE tenant_id = 'acme'",
      ),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.row).not.toContain(key);
    expect(
      Buffer.from(stored[0]?.key_hash ?? []).equals(createHash('sha256').update(key).digest()),
    ).toBe(true);

    const found = await db.withTenant('acme', (sql) => findApiKey(sql, key));
    expect(found?.id).toBe(stored[0]?.id);
    // Another tenant's key space does not hold it.
    expect(await db.withTenant('demo', (sql) => findApiKey(sql, key))).toBeUndefined();

    const list = await admin(['api-key', 'list', '--tenant', 'acme', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject([
      { id: found?.id, name: 'ERP sync', prefix: key.slice(0, 12), revoked_at: null },
    ]);
    expect(list.stdout).not.toContain(key);

    const revoked = await admin(['api-key', 'revoke', '--tenant', 'acme', '--id', found?.id ?? '']);
    expect(revoked.code).toBe(0);
    expect(await db.withTenant('acme', (sql) => findApiKey(sql, key))).toBeUndefined();
    const again = await admin(['api-key', 'revoke', '--tenant', 'acme', '--id', found?.id ?? '']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--id');
  });

  it('refuses API keys for an unknown tenant', async () => {
    const before = await fingerprint();
    const res = await admin(['api-key', 'create', '--tenant', 'nobody', '--name', 'x']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('--tenant: no tenant nobody');
    expect(await fingerprint()).toBe(before);
  });

  describe("test mode and live, the operator's choice per tenant", () => {
    const create = (id: string, ...more: string[]) => [
      'tenant',
      'create',
      '--id',
      id,
      '--url',
      `https://${id}.portal.example`,
      '--company-name',
      `Club ${id}`,
      ...more,
    ];
    const testModeOf = async (id: string) => (await tenantColumns(id))?.test_mode;

    it('puts a tenant in test mode and back to live; shows and lists the mode', async () => {
      const created = await admin(create('pruebas', '--test-mode'));
      expect(created.code, created.stderr).toBe(0);
      expect(await testModeOf('pruebas')).toBe(true);
      // On the simulator in test mode: nothing a production server would refuse.
      expect(created.stderr).not.toContain('refuses to start');
      const shown = await admin(['tenant', 'show', '--id', 'pruebas']);
      expect(shown.stdout).toMatch(/^mode +test \(payments are not real; the portal says so\)$/m);
      expect((await admin(['tenant', 'list'])).stdout).toMatch(/^pruebas +\S+ +simulator +test /m);

      const live = await admin(['tenant', 'update', '--id', 'pruebas', '--live']);
      expect(live.code, live.stderr).toBe(0);
      expect(live.stdout).toContain('Updated tenant pruebas: live.');
      expect(await testModeOf('pruebas')).toBe(false);
      // Live on the simulator: said at once, naming the command that fixes it.
      expect(live.stderr).toContain(
        'note: a production server refuses to start: tenant pruebas: live but paying through the local Redsys simulator',
      );
      expect(live.stderr).toContain('npm run admin -- tenant update --id pruebas --test-mode');
    });

    it('refuses --test-mode with --live, writing nothing', async () => {
      const before = await fingerprint();
      const both = await admin(['tenant', 'update', '--id', 'demo', '--test-mode', '--live']);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('error: --test-mode: give --test-mode or --live, not both');
      expect(await fingerprint()).toBe(before);
    });

    it('with NODE_ENV=production, refuses what a production server would refuse to start with', async () => {
      const production = { production: true };
      const before = await fingerprint();
      // A new tenant is live: on the default simulator that is refused, and nothing is written.
      const refused = await admin(create('vivo'), '', production);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'refused (NODE_ENV=production): tenant vivo: live but paying through the local Redsys simulator',
      );
      expect(refused.stderr).toContain('Nothing was written.');
      expect(await fingerprint()).toBe(before);
      // Live with the public test merchant and key, on the production host: refused too.
      const publicKey = await admin(
        [
          ...create('vivo', '--live', '--redsys-environment', 'production'),
          ...['--redsys-merchant-code', '999008881', '--redsys-terminal', '1'],
          '--redsys-key-stdin',
        ],
        'sq7HjrUOBfKmC576ILgskD5srU870gJ7',
        production,
      );
      expect(publicKey.code).toBe(1);
      expect(publicKey.stderr).toContain("tenant vivo: live with Redsys' public test merchant");
      expect(publicKey.stderr).toContain("tenant vivo: live with Redsys' public test key");
      expect(await fingerprint()).toBe(before);
      // In test mode on the test host, or live with its own merchant: written.
      const testMode = await admin(
        create('vivo', '--test-mode', '--redsys-environment', 'test'),
        '',
        production,
      );
      expect(testMode.code, testMode.stderr).toBe(0);
      const ownKey = randomBytes(24).toString('base64');
      const goingLive = await admin(
        [
          ...['tenant', 'update', '--id', 'vivo', '--live', '--redsys-environment', 'production'],
          ...['--redsys-merchant-code', '123456789', '--redsys-terminal', '1'],
          '--redsys-key-stdin',
        ],
        ownKey,
        production,
      );
      expect(goingLive.code, goingLive.stderr).toBe(0);
      expect(await tenantColumns('vivo')).toMatchObject({
        test_mode: false,
        redsys_environment: 'production',
        redsys_merchant_code: '123456789',
      });
    });
  });

  it('lists the tenants', async () => {
    const text = await admin(['tenant', 'list']);
    expect(text.code).toBe(0);
    const ids = text.out.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(expect.arrayContaining(['1', 'demo', 'acme']));
    const json = await admin(['tenant', 'list', '--json']);
    const rows = JSON.parse(json.stdout) as { id: string; canonical_url: string }[];
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(['1', 'demo', 'acme']));
    expect(rows.find((r) => r.id === 'acme')?.canonical_url).toBe('https://acme.portal.example');
  });

  it('sets an OpenID provider with a sealed client secret, keeps it on change but not for another issuer, removes it', async () => {
    const set = await admin(
      [
        'oidc',
        'set',
        '--tenant',
        'acme',
        '--provider',
        'google',
        '--issuer',
        'https://accounts.google.com',
        '--client-id',
        'acme-portal.apps.googleusercontent.com',
        '--client-secret-stdin',
      ],
      'GOCSPX-secret-value\n',
    );
    expect(set.code).toBe(0);
    const [stored] = await db.withOwner((sql) =>
      sql.query<{ client_secret: string }>(
        "SELECT client_secret FROM tenant_sign_in_providers WHERE tenant_id = 'acme' AND provider = 'google'",
      ),
    );
    expect(stored?.client_secret.startsWith('enc:v1:')).toBe(true);
    expect(stored?.client_secret).not.toContain('GOCSPX');
    const open = () =>
      db.withTenant('acme', (sql) => findProvider(sql, createSecretBox(rootSecret), 'google'));
    expect(await open()).toEqual({
      provider: 'google',
      issuer: 'https://accounts.google.com',
      client_id: 'acme-portal.apps.googleusercontent.com',
      client_secret: 'GOCSPX-secret-value',
    });
    const visual = await app.inject({ method: 'GET', url: '/acme/api/1.0/visual-config' });
    expect(ZVisualConfig.parse(visual.json()).sign_in_providers).toEqual(['google']);

    const changed = await admin([
      'oidc',
      'set',
      '--tenant',
      'acme',
      '--provider',
      'google',
      '--issuer',
      'https://accounts.google.com',
      '--client-id',
      'other-client',
    ]);
    expect(changed.code).toBe(0);
    expect(await open()).toMatchObject({
      client_id: 'other-client',
      client_secret: 'GOCSPX-secret-value',
    });

    // Another issuer with the stored secret would send Google's secret to that issuer's token
    // endpoint at the next sign-in: refused, nothing changed; with its own secret it is set.
    const moved = (secret?: string) =>
      admin(
        [
          'oidc',
          'set',
          '--tenant',
          'acme',
          '--provider',
          'google',
          '--issuer',
          'https://idp.example.org/',
          '--client-id',
          'other-client',
          ...(secret ? ['--client-secret-stdin'] : []),
        ],
        secret,
      );
    const withoutSecret = await moved();
    expect(withoutSecret.code).toBe(2);
    expect(withoutSecret.stderr).toContain('--issuer');
    expect(withoutSecret.stderr).toContain('needs its own client secret');
    expect(await open()).toMatchObject({
      issuer: 'https://accounts.google.com',
      client_secret: 'GOCSPX-secret-value',
    });
    expect((await moved('idp-secret\n')).code).toBe(0);
    expect(await open()).toMatchObject({
      issuer: 'https://idp.example.org/',
      client_secret: 'idp-secret',
    });

    const shared = await admin([
      'oidc',
      'set',
      '--tenant',
      'acme',
      '--provider',
      'microsoft',
      '--issuer',
      'https://login.microsoftonline.com/common/v2.0',
      '--client-id',
      'x',
    ]);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('--issuer');

    const removed = await admin(['oidc', 'remove', '--tenant', 'acme', '--provider', 'google']);
    expect(removed.code).toBe(0);
    expect(await open()).toBeUndefined();
    const twice = await admin(['oidc', 'remove', '--tenant', 'acme', '--provider', 'google']);
    expect(twice.code).toBe(1);
  });

  it('answers help, and usage on stderr with exit 2 for an unknown command', async () => {
    const help = await admin(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tenant create --id <id> --url');
    const commandHelp = await admin(['api-key', 'create', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain('api-key create --tenant <id> --name <name>');
    const unknown = await admin(['tenant', 'delete', '--id', 'demo']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('unknown command "tenant delete"');
    expect(unknown.stderr).toContain('npm run admin -- tenant list');
  });
});

describe('the admin command itself', () => {
  it('runs on a fresh embedded database: migrates it and lists no tenants', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-admin-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      delete env.APP_SECRET;
      delete env.DATABASE_URL;
      const { stdout, stderr } = await promisify(execFile)(
        'npx',
        ['tsx', 'apps/api/src/admin-cli.ts', 'tenant', 'list'],
        { cwd: repoRoot, env, timeout: 90_000 },
      );
      expect(stdout).toBe('');
      expect(stderr).toContain('No tenants yet');
      // The root secret was generated where the server will find it, as the server does.
      expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['app-secret', 'pglite']));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
