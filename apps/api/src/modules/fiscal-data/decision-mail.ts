import type { TFiscalData } from '@portal/contract';
import { appPaths } from '@portal/contract/app-paths';
import { fiscalDataFields } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { sendAccountMail } from '../auth/account-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import { fiscalDataMessages } from './messages.ts';

export type FiscalDecisionMail = {
  tenantId: string;
  customer: { email: string; language: string };
  decision: 'approved' | 'rejected';
  requested: TFiscalData;
  reason: string;
};

/**
 * "The organisation decided your fiscal data request": the new data when approved, the reason when
 * rejected, in the customer's language, to the address they sign in with. Nothing in it signs
 * anyone in: its button opens the profile.
 */
export function createFiscalDecisionMailer(db: Database, mailer: Mailer) {
  return ({ tenantId, customer, decision, requested, reason }: FiscalDecisionMail) =>
    sendAccountMail(db, mailer, tenantId, customer, (_, lang) => {
      const m = fiscalDataMessages[lang];
      const approved = decision === 'approved';
      return {
        subject: m.subject,
        heading: approved ? m.approvedHeading : m.rejectedHeading,
        paragraphs: approved
          ? [m.approvedIntro, ...fiscalDataFields.map((f) => `${m.fields[f]}: ${requested[f]}`)]
          : [m.rejectedIntro, m.reason.replace('{reason}', () => reason), m.rejectedNext],
        button: { label: m.button, path: appPaths.userProfile },
        kind: `fiscal-data-${decision}`,
      };
    });
}
