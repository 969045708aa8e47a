import { describe, expect, it } from 'vitest';
import { ZAddBankAccountRequest, ZUpdatePaymentMethodRequest } from '@portal/contract/account';
import {
  addBankAccountBody,
  type BankAccountForm,
  emptyBankAccountForm,
  entityOfIban,
  validateBankAccount,
} from './bank-account-form';
import { serverFieldErrors, validateAlias, validateHolder } from './field-rules';

const valid: BankAccountForm = {
  iban: 'ES91 2100 0418 4502 0005 1332',
  holder: 'Laura García Martín',
  nif: '12345678Z',
  entity: '',
  alias: '',
};

/** The first code the contract's schema gives each field (what the API would answer in a 422). */
function contractCodes(body: Record<string, unknown>): Record<string, string> {
  const result = ZAddBankAccountRequest.safeParse(body);
  if (result.success) return {};
  const codes: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    codes[field] ??= issue.message;
  }
  return codes;
}

describe('the bank account form (spec §5 "Bank account")', () => {
  it('accepts a valid account, with the entity taken from the IBAN', () => {
    expect(validateBankAccount(valid)).toEqual({});
    expect(entityOfIban(valid.iban)).toBe('CaixaBank');
    expect(entityOfIban('es91 2100 0418 4502 0005 1332')).toBe('CaixaBank');
    expect(addBankAccountBody({ ...valid, holder: ' Laura ', alias: ' Casa ' })).toEqual({
      iban: valid.iban,
      holder: 'Laura',
      nif: '12345678Z',
      alias: 'Casa',
    });
  });

  it('requires every field, and the entity when the IBAN does not name the bank', () => {
    expect(validateBankAccount(emptyBankAccountForm)).toEqual({
      iban: 'required',
      holder: 'required',
      nif: 'required',
      entity: 'required',
    });
    // A valid IBAN of a bank code the table does not know (Germany): the entity is typed.
    const german = { ...valid, iban: 'DE89 3704 0044 0532 0130 00' };
    expect(entityOfIban(german.iban)).toBeNull();
    expect(validateBankAccount(german)).toEqual({ entity: 'required' });
    expect(addBankAccountBody({ ...german, entity: ' Commerzbank ' })).toMatchObject({
      entity: 'Commerzbank',
    });
  });

  it('refuses a wrong IBAN check digit and a wrong NIF letter', () => {
    expect(
      validateBankAccount({ ...valid, iban: 'ES91 2100 0418 4502 0005 1333', nif: '12345678A' }),
    ).toEqual({ iban: 'invalid_iban', nif: 'invalid_nif' });
  });

  it('answers the same codes as the contract schema the API validates with', () => {
    const cases: Partial<BankAccountForm>[] = [
      {},
      { iban: '   ', holder: ' ', nif: '' },
      { iban: 'ES91 2100 0418 4502 0005 1333' },
      { iban: 'ES9121000418450200051332x' },
      { iban: 'XX00 1234' },
      { iban: 'DE89370400440532013000' },
      // Valid IBANs outside the SEPA area (Brazil, Turkey): no mandate can debit them.
      { iban: 'BR1800360305000010009795493C1' },
      { iban: 'TR330006100519786457841326' },
      { holder: 'Laura García\nNIF 99999999R' },
      { nif: '12345678A' },
      { nif: 'X1234567L' },
      { nif: 'B12345674' },
      { nif: 'x'.repeat(21) },
      { holder: 'x'.repeat(121) },
      { holder: ` ${'x'.repeat(120)} ` },
      { alias: 'x'.repeat(61) },
      { alias: 'x'.repeat(60) },
    ];
    for (const patch of cases) {
      const form = { ...valid, ...patch };
      const mine = validateBankAccount(form);
      const theirs = contractCodes(addBankAccountBody(form));
      // The entity too: both ask for it where the IBAN names no bank (spec §5: all required);
      // the contract only once the other fields are valid, the form beside their errors.
      if (Object.keys(theirs).length > 0 && !('entity' in theirs)) delete mine.entity;
      expect(mine, JSON.stringify(patch)).toEqual(theirs);
    }
  });

  it('checks the edits of a method as the contract does', () => {
    for (const alias of ['', 'Nómina', 'x'.repeat(60), 'x'.repeat(61)]) {
      const parsed = ZUpdatePaymentMethodRequest.safeParse({ alias });
      expect(validateAlias(alias), alias).toBe(
        parsed.success ? undefined : parsed.error.issues[0]?.message,
      );
    }
    for (const holder of [' ', 'Laura', 'x'.repeat(121)]) {
      const parsed = ZUpdatePaymentMethodRequest.safeParse({ holder });
      expect(validateHolder(holder), holder).toBe(
        parsed.success ? undefined : parsed.error.issues[0]?.message,
      );
    }
  });

  it('refuses a control or broken character as every call of the API does', () => {
    expect(validateAlias('Casa\u0000')).toBe('invalid_characters');
    expect(validateHolder('Laura \ud800')).toBe('invalid_characters');
    expect(validateBankAccount({ ...valid, holder: 'Laura\u001b' })).toEqual({
      holder: 'invalid_characters',
    });
    expect(validateAlias('Nómina 😀')).toBeUndefined();
    expect(serverFieldErrors({ alias: ['invalid_characters'] }, ['alias'])).toEqual({
      alias: 'invalid_characters',
    });
  });

  it("reads the known codes of the server's 422", () => {
    expect(
      serverFieldErrors(
        { iban: ['invalid_iban'], nif: ['weird', 'invalid_nif'], x: ['required'] },
        ['iban', 'nif', 'holder'],
      ),
    ).toEqual({ iban: 'invalid_iban', nif: 'invalid_nif' });
    expect(serverFieldErrors(undefined, ['iban'])).toEqual({});
  });
});
