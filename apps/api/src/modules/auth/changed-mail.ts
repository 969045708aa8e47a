import type { Database } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { sendAccountMail } from './account-mail.ts';
import type { CustomerAuthRow } from './repository.ts';
import { appPaths } from '@portal/contract/app-paths';

const formats = new Map<string, Intl.DateTimeFormat>();

/** When it happened, as the customer reads it in their language, on Madrid's clock. */
export const whenIn = (lang: Language, at: Date): string => {
  let format = formats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(`${lang}-ES`, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'Europe/Madrid',
    });
    formats.set(lang, format);
  }
  return format.format(at);
};

/**
 * "Your password was changed", after a change from the profile: when, that the other devices were
 * signed out, and what to do if it was not the owner (the recovery page, which sends a reset link
 * to the owner's mailbox; this e-mail itself carries nothing that signs anyone in).
 */
export function createPasswordChangedMailer(db: Database, mailer: Mailer) {
  return ({ tenantId, customer, at }: { tenantId: string; customer: CustomerAuthRow; at: Date }) =>
    sendAccountMail(db, mailer, tenantId, customer, (m, lang) => ({
      subject: m.changedSubject,
      heading: m.changedHeading,
      paragraphs: [m.changedIntro.replace('{when}', whenIn(lang, at)), m.changedIfNotYou],
      button: { label: m.changedButton, path: appPaths.recoverPassword },
    }));
}
