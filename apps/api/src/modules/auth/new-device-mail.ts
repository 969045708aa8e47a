import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import { whenIn } from './changed-mail.ts';
import type { DeviceDescription } from './device.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * "Was this you?", after the first sign-in from a browser the customer never used: when, which
 * browser and system, which network (a prefix, never a place), and a link that ends that session
 * without signing anyone in (it only ends). The link is never logged, in any mode.
 */
export function createNewDeviceMailer(db: Database, mailer: Mailer) {
  return ({
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
  }) =>
    sendAccountMail(db, mailer, tenantId, customer, (m, lang) => {
      const described =
        [device.browser, device.os].filter(Boolean).join(', ') || m.newDeviceUnknown;
      return {
        subject: m.newDeviceSubject,
        heading: m.newDeviceHeading,
        kind: 'new-device',
        paragraphs: [
          m.newDeviceIntro
            .replace('{when}', () => whenIn(lang, at))
            .replace('{device}', () => described)
            .replace('{network}', () => network || '?'),
          m.newDeviceIfYou,
          m.newDeviceIfNotYou,
        ],
        button: {
          label: m.newDeviceButton,
          path: `${appPaths.endSessionLink}?${new URLSearchParams({ token }).toString()}`,
        },
      };
    });
}
