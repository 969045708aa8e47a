import { readFileSync } from 'node:fs';
import { returnReasonCodes } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { returnedDebitMessages, returnReasonText } from './messages.ts';

const webTexts = (language: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../../web/src/locales/${language}/invoices.json`, import.meta.url),
      'utf8',
    ),
  ) as { returnedDebit: { reasons: Record<string, string>; otherReason: string } };

describe('returned debit reasons', () => {
  it('are worded the same in the e-mail and on the screens, in every language', () => {
    for (const [language, m] of Object.entries(returnedDebitMessages)) {
      const web = webTexts(language).returnedDebit;
      expect(web.reasons, language).toEqual(m.reasons);
      expect(web.otherReason.replace('{{code}}', '{code}'), language).toBe(m.otherReason);
      expect(Object.keys(m.reasons).sort(), language).toEqual([...returnReasonCodes].sort());
    }
  });

  it('word a known code plainly and an unknown one generically with its code', () => {
    expect(returnReasonText('es', 'AM04')).toBe('Fondos insuficientes en la cuenta');
    expect(returnReasonText('en', 'MD06')).toBe("Returned at the account holder's request");
    expect(returnReasonText('es', 'ZZ99')).toBe('El banco no pudo cobrar el recibo (código ZZ99)');
    // Not an own property: never a prototype's.
    expect(returnReasonText('ca', 'toString')).toContain('toString');
  });
});
