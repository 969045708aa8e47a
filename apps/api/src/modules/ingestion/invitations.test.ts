import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from './invitations.ts';
import { invitationMessages, invitationTexts } from './messages.ts';

describe('invitation retries', () => {
  it('doubles the wait after each failure, up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelaySeconds(n, 60, 600))).toEqual([
      60, 120, 240, 480, 600,
    ]);
  });
});

describe('invitation texts', () => {
  it('has the same texts in every language', () => {
    const keys = Object.keys(invitationMessages.es).sort();
    for (const texts of Object.values(invitationMessages)) {
      expect(Object.keys(texts).sort()).toEqual(keys);
      for (const text of Object.values(texts)) expect(text.trim()).not.toBe('');
    }
  });

  it('fills in the company and the days, and falls back to Spanish', () => {
    const t = invitationTexts('ca', { company: 'Club Nàutic', days: 7 });
    expect(t.subject).toBe("El teu accés a l'oficina en línia de Club Nàutic");
    expect(t.expiry).toContain('7 dies');
    expect(invitationTexts('fr', { company: 'X', days: 7 }).button).toBe('Elegir mi contraseña');
    for (const lang of Object.keys(invitationMessages))
      for (const text of Object.values(invitationTexts(lang, { company: 'X', days: 7 })))
        expect(text).not.toMatch(/[{}]/);
  });
});
