import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { adminCommand } from './admin-run.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';

/*
 * What is wrong (low): the e-mails link the tenant's logo as `${canonical}/{tenant}/api/1.0/logo`,
 * always the same address (tenantLogoUrl in apps/api/src/modules/tenants/service.ts, used by every
 * mailer), while the logo route answers `Cache-Control: public, max-age=86400`
 * (tenants/routes.ts). The web app's branding links it with `?v=<updated_at>` (getVisualConfig),
 * the e-mails do not.
 *
 * Why it matters: after the operator replaces a logo (a rebranding, a wrong logo uploaded), mail
 * clients and webmail image proxies keep showing the old one in every new e-mail for a day (the
 * proxies often longer): customers get receipts and resets with another brand's image.
 *
 * Now (session 39): the e-mails link the logo with the same version the web app uses
 * (`tenantLogoUrl(base, id)` + `?v=${updated_at}`), so a new logo is a new address.
 */
const png = (marker: string) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from(marker),
  ]);

describe.each(engines())('the logo in e-mails on $name', (engine) => {
  let env: MailingApp;
  let ip = 0;
  const files: Record<string, Uint8Array> = {
    '/in/old.png': png('the old logo'),
    '/in/new.png': png('the new logo'),
  };
  const admin = () =>
    adminCommand(env.db, undefined, {
      readFile: async (path: string) => {
        const bytes = files[path];
        if (!bytes) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
        return bytes;
      },
    });
  const logoOfNextMail = async (): Promise<string> => {
    env.smtp.inbox.length = 0;
    const res = await env.app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: demoEmail },
      remoteAddress: `10.78.0.${++ip}`,
    });
    expect(res.statusCode).toBe(202);
    const mail = await env.smtp.waitFor(demoEmail);
    const src = /<img src="([^"]+)"/.exec(mail.raw)?.[1];
    if (!src) throw new Error('no logo in the e-mail');
    return src.replace(/&#38;/g, '&');
  };

  beforeAll(async () => {
    env = await openMailingApp(engine);
  });
  afterAll(() => env.close());

  it('links a replaced logo at a new address, as the web app does', async () => {
    expect((await admin()('tenant', 'update', '--id', 'demo', '--logo', '/in/old.png')).code).toBe(
      0,
    );
    const before = await logoOfNextMail();
    // The operator replaces the logo.
    expect((await admin()('tenant', 'update', '--id', 'demo', '--logo', '/in/new.png')).code).toBe(
      0,
    );
    const after = await logoOfNextMail();
    // The address the mail names serves the new logo, publicly cacheable for a day...
    const served = await env.app.inject({
      method: 'GET',
      url: new URL(after).pathname + new URL(after).search,
    });
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('the new logo');
    expect(served.headers['cache-control']).toContain('max-age=86400');
    // ...so it must not be the address a mail client already cached the old logo under.
    expect(after).not.toBe(before);
  }, 30_000);
});
