import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailMessages, type Language } from '../mail/messages.ts';
import { loadTenantMailInfo, tenantLogoUrl } from '../tenants/service.ts';
import type { DeviceDescription } from './device.ts';
import type { CustomerAuthRow } from './repository.ts';
import { whenIn } from './changed-mail.ts';
import { appPaths } from '@portal/contract/app-paths';

/** Names the notice, so that a mail filter (or a test's inbox) can tell it from the rest. */
export const newDeviceMailHeader = 'X-Portal-Mail';

/**
 * "Was this you?", after the first sign-in from a browser the customer never used: when, which
 * browser and system, which network (a prefix, never a place), and a link that ends that session
 * without signing anyone in (it only ends). The link is never logged, in any mode.
 */
export function createNewDeviceMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    customer,
    token,
    device,
    network,
    at,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
    device: DeviceDescription;
    network: string;
    at: Date;
  }) => {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${appPaths.endSessionLink}?${new URLSearchParams({ token }).toString()}`;
    const lang = (customer.language in mailMessages ? customer.language : 'es') as Language;
    const m = mailMessages[lang];
    const described = [device.browser, device.os].filter(Boolean).join(', ') || m.newDeviceUnknown;
    const intro = m.newDeviceIntro
      .replace('{when}', whenIn(lang, at))
      .replace('{device}', described)
      .replace('{network}', network || '?');
    await mailer.send({
      from: tenant.mail_from || `${tenant.company_name} <no-reply@localhost>`,
      to: customer.email,
      subject: `${m.newDeviceSubject} · ${tenant.company_name}`,
      headers: { [newDeviceMailHeader]: 'new-device' },
      text: [
        intro,
        '',
        m.newDeviceIfYou,
        m.newDeviceIfNotYou,
        `${m.newDeviceButton}: ${url}`,
        '',
        m.footer,
      ].join('\n'),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: tenant.has_logo ? tenantLogoUrl(base, tenantId) : null,
        },
        {
          heading: m.newDeviceHeading,
          paragraphs: [intro, m.newDeviceIfYou, m.newDeviceIfNotYou],
          button: { label: m.newDeviceButton, url },
          footer: m.footer,
        },
      ),
    });
  };
}
