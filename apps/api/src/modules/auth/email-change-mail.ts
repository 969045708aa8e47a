import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import { whenIn } from './changed-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * A change of the sign-in e-mail (issue 23): the confirmation link to the new address, and a
 * notice to the current one, which says what was asked and what to do if it was not the owner.
 * The link changes the account's identity: it is never logged, in every mode.
 */
export function createEmailChangeMailer(db: Database, mailer: Mailer) {
  return async ({
    tenantId,
    customer,
    newEmail,
    token,
    hours,
    at,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    newEmail: string;
    token: string;
    hours: number;
    at: Date;
  }) => {
    await sendAccountMail(db, mailer, tenantId, { ...customer, email: newEmail }, (m) => ({
      subject: m.emailChangeSubject,
      heading: m.emailChangeHeading,
      kind: 'email-change',
      paragraphs: [
        m.emailChangeIntro.replace('{old}', customer.email),
        m.emailChangeExpiry.replace('{hours}', String(hours)),
        m.emailChangeIgnore,
      ],
      button: {
        label: m.emailChangeButton,
        path: `${appPaths.confirmEmail}?${new URLSearchParams({ token }).toString()}`,
      },
    }));
    await sendAccountMail(db, mailer, tenantId, customer, (m, lang) => ({
      subject: m.emailNoticeSubject,
      heading: m.emailNoticeHeading,
      kind: 'email-change-notice',
      paragraphs: [
        m.emailNoticeIntro.replace('{when}', whenIn(lang, at)).replace('{new}', newEmail),
        m.emailNoticeIfNotYou,
      ],
    }));
  };
}
