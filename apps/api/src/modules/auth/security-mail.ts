import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import { whenIn } from './changed-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

/** A new way into the account: a passkey (with its name), or the second factor turned on. */
export type SecurityChange = { kind: 'passkey-added'; name: string } | { kind: 'second-factor-on' };

/**
 * "A passkey was added" / "two-step verification was turned on": the owner hears of every new way
 * into the account, whoever added it, with when and what to do if it was not them (the recovery
 * page; this e-mail carries nothing that signs anyone in).
 */
export function createSecurityChangeMailer(db: Database, mailer: Mailer) {
  return ({
    tenantId,
    customer,
    change,
    at,
  }: {
    tenantId: string;
    customer: CustomerAuthRow;
    change: SecurityChange;
    at: Date;
  }) =>
    sendAccountMail(db, mailer, tenantId, customer, (m, lang) => {
      const when = whenIn(lang, at);
      const [subject, heading, intro] =
        change.kind === 'passkey-added'
          ? [
              m.passkeyAddedSubject,
              m.passkeyAddedHeading,
              m.passkeyAddedIntro.replace('{when}', when).replace('{name}', () => change.name),
            ]
          : [
              m.secondFactorOnSubject,
              m.secondFactorOnHeading,
              m.secondFactorOnIntro.replace('{when}', when),
            ];
      return {
        subject,
        heading,
        paragraphs: [intro, m.securityIfNotYou],
        button: { label: m.changedButton, path: appPaths.recoverPassword },
        kind: change.kind,
      };
    });
}
