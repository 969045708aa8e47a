import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * The sign-in link asked for on the sign-in screen. The link signs its holder in: it is never
 * logged, in any mode (in the demo it is read in the outbox).
 */
export function createSignInLinkMailer(db: Database, mailer: Mailer) {
  return ({
    tenantId,
    customer,
    token,
    minutes,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
    minutes: number;
  }) =>
    sendAccountMail(db, mailer, tenantId, customer, (m) => ({
      subject: m.signInLinkSubject,
      heading: m.signInLinkHeading,
      kind: 'sign-in-link',
      paragraphs: [
        m.signInLinkIntro,
        m.signInLinkExpiry.replace('{minutes}', String(minutes)),
        m.signInLinkIgnore,
      ],
      button: {
        label: m.signInLinkButton,
        path: `${appPaths.signInLink}?${new URLSearchParams({ token }).toString()}`,
      },
    }));
}
