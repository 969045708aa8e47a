import type { signedIn } from './session.ts';

type Customer = Awaited<ReturnType<typeof signedIn>>;

/** The bank account the tests add for the demo customer: a Spanish IBAN, its mandate accepted. */
export const demoBankAccount = {
  iban: 'ES91 2100 0418 4502 0005 1332',
  holder: 'Laura García Martín',
  nif: '12345678Z',
  mandate_accepted: true,
  mandate_language: 'es',
};

/**
 * The customer adds `demoBankAccount` (with `changes`), signing its SEPA mandate: the API's answer,
 * unchecked.
 */
export const addBankAccount = (who: Customer, changes: Record<string, unknown> = {}) =>
  who.post('/payment-methods/bank-account', { ...demoBankAccount, ...changes });
