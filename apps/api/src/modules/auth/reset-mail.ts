import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * The password-reset e-mail. The link is never logged, in any mode: it signs its holder in. In
 * the demo it is read in the outbox (`DATA_DIR/outbox/*.eml`).
 */
export function createResetMailer(db: Database, mailer: Mailer) {
  return ({
    tenantId,
    customer,
    token,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
  }) =>
    sendAccountMail(db, mailer, tenantId, customer, (m) => ({
      subject: m.resetSubject,
      heading: m.resetHeading,
      paragraphs: [m.resetIntro, m.resetExpiry, m.resetIgnore],
      button: {
        label: m.resetButton,
        path: `${appPaths.resetPassword}?${new URLSearchParams({ token, email: customer.email }).toString()}`,
      },
    }));
}
