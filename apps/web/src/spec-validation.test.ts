import { ZAddBankAccountRequest } from '@portal/contract/account';
import { describe, expect, it } from 'vitest';
import esFiscal from '@/locales/es/fiscal-data.json';
import esContact from '@/locales/es/contact.json';
import { validateBankAccount } from '@/features/payment-methods/utils/bank-account-form';
import { validateHolder } from '@/features/payment-methods/utils/field-rules';

/**
 * Against the spec (portal-spec.md, session 38 review): validation rules and required-field texts where
 * the web form, the API contract and the spec disagree.
 */
describe('spec §5 "Bank account: iban, holder, nif, entity all required"', () => {
  // A valid SEPA IBAN whose bank code the portal cannot turn into an entity (not Spanish).
  const foreign = {
    iban: 'FR7630006000011234567890189',
    holder: 'Ana Pérez',
    nif: '12345678Z',
  };

  it('the web form requires the entity when the IBAN does not give it', () => {
    expect(validateBankAccount({ ...foreign, entity: '', alias: '' }).entity).toBe('required');
  });

  it('the API contract refuses the same account without an entity (it stores an empty one)', () => {
    const result = ZAddBankAccountRequest.safeParse(foreign);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain('entity');
  });

  it('the API contract refuses a blank entity too', () => {
    const result = ZAddBankAccountRequest.safeParse({ ...foreign, entity: '   ' });
    expect(result.success).toBe(false);
  });
});

describe('web form and contract agree on the holder (decision 019: the same codes)', () => {
  it('a holder with a NEL line break (U+0085) is refused by both', () => {
    const holder = 'Ana\u0085Pérez';
    const contract = ZAddBankAccountRequest.shape.holder.safeParse(holder);
    expect(contract.success).toBe(false);
    expect(validateHolder(holder)).toBe('invalid_characters');
  });
});

describe('spec §5/§8 required-field message "Este campo es obligatorio"', () => {
  it('the contact form says it exactly', () => {
    expect(esContact.validation.required).toBe('Este campo es obligatorio');
  });

  it('the fiscal-data form says the same text (no trailing full stop)', () => {
    expect(esFiscal.errors.required).toBe('Este campo es obligatorio');
  });
});
