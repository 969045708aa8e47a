import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import {
  demoCreditor,
  renderScreen,
  sampleAccount,
  sampleCard,
  signIn,
  stubApi,
} from '../testing/fixtures';
import { BankAccountViewScreen } from './bank-account-view-screen';
import { CardViewScreen } from './card-view-screen';
import { SepaMandatesSection } from './sepa-mandates-section';

/*
 * The days the payment methods screens write, in a browser outside Madrid (the Canary Islands, one
 * hour behind; or any browser on UTC). The server dates a mandate on Madrid's day: its reference
 * (M-yyyymmdd-…, test/mandate-reference-madrid-day.test.ts) and its PDF ("01/01/2027, 00:30:00
 * CET"); "Firmada el …" must be that day, not the browser's, or the legal document's date
 * disagrees with itself across a year end. "Añadida el" of a card or account is on the same clock,
 * as every date of the portal (lib/dates.ts formatMomentDay).
 */
describe('dates of the payment methods, browser outside Madrid', () => {
  const savedTz = process.env.TZ;
  beforeEach(signIn);
  afterEach(() => {
    vi.unstubAllGlobals();
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('is the Madrid day its reference and PDF carry, not the browser day', async () => {
    process.env.TZ = 'Atlantic/Canary';
    stubApi(() => undefined, {
      creditor: demoCreditor,
      mandates: [
        {
          id: 'md-1',
          // Signed at 00:30 on 1 January 2027 in Madrid (23:30 on 31 December in Las Palmas).
          reference: 'M-20270101-0123456789AB',
          status: 'active',
          debtor_name: 'Laura García Martín',
          iban: 'ES38 2100 0418 4045 0200 0514',
          payment_method_id: 'pm-account',
          signed_at: '2026-12-31T23:30:00.000Z',
          replaced_by_reference: null,
        },
      ],
    });
    await renderScreen(<SepaMandatesSection />, '/metodos-de-pago');
    await screen.findByText('M-20270101-0123456789AB');
    expect(screen.queryByText('Firmada el 31/12/2026')).toBeNull();
    expect(screen.getByText('Firmada el 01/01/2027')).toBeTruthy();
  });

  it.each([
    ['card', sampleCard, CardViewScreen, '/credit-card?id=pm-card'],
    ['bank account', sampleAccount, BankAccountViewScreen, '/cuenta-bancaria?id=pm-account'],
  ] as const)("says a %s was added on Madrid's day", async (_, method, View, path) => {
    process.env.TZ = 'Atlantic/Canary';
    // Added at 00:30 on 1 January 2027 in Madrid (23:30 on 31 December in Las Palmas).
    const added = { ...method, created_at: '2026-12-31T23:30:00.000Z' };
    stubApi((call) => (call.method === 'GET' ? { json: { methods: [added] } } : undefined));
    await renderScreen(<View id={method.id} />, path);
    const details = await screen.findByRole('region', {
      name: method.kind === 'card' ? es.cardView.details : es.bankAccountView.details,
    });
    expect(within(details).getByText(es.fields.addedOn)).toBeTruthy();
    expect(within(details).getByText('01/01/2027')).toBeTruthy();
    expect(details.textContent).not.toContain('31/12/2026');
  });
});
