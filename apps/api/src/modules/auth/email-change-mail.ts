import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import { whenIn } from './changed-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * A change of the sign-in e-mail (issue 23): a notice to the current address, which says what was
 * asked and what to do if it was not the owner, and then the confirmation link to the new one. In
 * that order: a link sent before a notice that then failed let whoever asked (a thief with the
 * password) take the account over without the owner ever hearing of it. The link changes the
 * account's identity: it is never logged, in every mode.
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
    await sendAccountMail(db, mailer, tenantId, customer, (m, lang) => ({
      subject: m.emailNoticeSubject,
      heading: m.emailNoticeHeading,
      kind: 'email-change-notice',
      paragraphs: [
        m.emailNoticeIntro.replace('{when}', whenIn(lang, at)).replace('{new}', () => newEmail),
        m.emailNoticeIfNotYou,
      ],
    }));
    await sendAccountMail(db, mailer, tenantId, { ...customer, email: newEmail }, (m) => ({
      subject: m.emailChangeSubject,
      heading: m.emailChangeHeading,
      kind: 'email-change',
      paragraphs: [
        m.emailChangeIntro.replace('{old}', () => customer.email),
        m.emailChangeExpiry.replace('{hours}', String(hours)),
        m.emailChangeIgnore,
      ],
      button: {
        label: m.emailChangeButton,
        path: `${appPaths.confirmEmail}?${new URLSearchParams({ token }).toString()}`,
      },
    }));
  };
}
