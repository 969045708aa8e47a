import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendAccountMail } from './account-mail.ts';
import { whenIn } from './changed-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { recentSecondFactorHours } from './service.ts';
import { appPaths } from '@portal/contract/app-paths';

/**
 * A new way into the account (a passkey, with its name; the second factor turned on), or a second
 * factor a password reset turned off (turned on at `since`, less than `recentSecondFactorHours`
 * before).
 */
export type SecurityChange =
  | { kind: 'passkey-added'; name: string }
  | { kind: 'second-factor-on' }
  | { kind: 'second-factor-reset'; since: Date };

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
      const hours = String(recentSecondFactorHours);
      if (change.kind === 'second-factor-reset') {
        return {
          subject: m.secondFactorResetSubject,
          heading: m.secondFactorResetHeading,
          paragraphs: [
            m.secondFactorResetIntro
              .replace('{when}', when)
              .replace('{since}', whenIn(lang, change.since))
              .replace('{hours}', hours),
            m.secondFactorResetIfYou,
          ],
          button: { label: m.secondFactorResetButton, path: appPaths.twoFactor },
          kind: change.kind,
        };
      }
      const [subject, heading, intro, ifNotYou] =
        change.kind === 'passkey-added'
          ? [
              m.passkeyAddedSubject,
              m.passkeyAddedHeading,
              m.passkeyAddedIntro.replace('{when}', when).replace('{name}', () => change.name),
              m.securityIfNotYou,
            ]
          : [
              m.secondFactorOnSubject,
              m.secondFactorOnHeading,
              m.secondFactorOnIntro.replace('{when}', when),
              m.secondFactorIfNotYou.replace('{hours}', hours),
            ];
      return {
        subject,
        heading,
        paragraphs: [intro, ifNotYou],
        button: { label: m.changedButton, path: appPaths.recoverPassword },
        kind: change.kind,
      };
    });
}
