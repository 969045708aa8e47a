import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import { isSpanishTaxId } from '@portal/contract/tax-id';
import {
  collectErrors,
  type FieldErrorCode,
  type FieldErrors,
  maxLengths,
  requiredText,
  validateAlias,
  validateHolder,
} from './field-rules';
import { spanishBankOf } from '@portal/contract/spanish-banks';

/** The add-bank-account form (spec §2, §5); the IBAN and NIF checks are the contract's. */
export type BankAccountField = 'iban' | 'holder' | 'nif' | 'entity' | 'alias';
export type BankAccountForm = Record<BankAccountField, string>;

export const emptyBankAccountForm: BankAccountForm = {
  iban: '',
  holder: '',
  nif: '',
  entity: '',
  alias: '',
};

/** `es91 2100 …` -> `ES9121000…`: what ibantools checks and the server stores. */
export function compactIban(value: string): string {
  return electronicFormatIBAN(value) ?? value.replace(/\s/g, '').toUpperCase();
}

/** The entity of the IBAN's bank code, when known: the server saves this one, not what was typed. */
export function entityOfIban(iban: string): string | null {
  return spanishBankOf(compactIban(iban));
}

/**
 * Required, then a valid IBAN (ibantools, as the contract: country, length, check digits) of a
 * country of the SEPA area (a mandate debits it).
 */
export function validateIban(value: string): FieldErrorCode | undefined {
  const iban = electronicFormatIBAN(value.trim()) ?? '';
  return (
    requiredText(value, maxLengths.iban) ??
    (!isValidIBAN(iban)
      ? 'invalid_iban'
      : isSEPACountry(iban.slice(0, 2))
        ? undefined
        : 'iban_not_sepa')
  );
}

/** Required, then a DNI, NIE or CIF with its check character (the contract's rule). */
export function validateNif(value: string): FieldErrorCode | undefined {
  return requiredText(value, maxLengths.nif) ?? (isSpanishTaxId(value) ? undefined : 'invalid_nif');
}

/**
 * Spec §5 "Bank account": IBAN, holder, NIF and entity required; the IBAN valid, the NIF a
 * DNI/NIE/CIF. The entity is required only where the IBAN does not name it (the server takes the
 * bank's name from the IBAN when it knows the code).
 */
export function validateBankAccount(form: BankAccountForm): FieldErrors<BankAccountField> {
  const derived = entityOfIban(form.iban);
  return collectErrors<BankAccountField>([
    ['iban', validateIban(form.iban)],
    ['holder', validateHolder(form.holder)],
    ['nif', validateNif(form.nif)],
    ['entity', derived ? undefined : requiredText(form.entity, maxLengths.entity)],
    ['alias', validateAlias(form.alias)],
  ]);
}

/** The body of `addBankAccount`, trimmed; the entity only when the IBAN does not give it. */
export function addBankAccountBody(form: BankAccountForm) {
  const alias = form.alias.trim();
  const derived = entityOfIban(form.iban);
  return {
    iban: form.iban.trim(),
    holder: form.holder.trim(),
    nif: form.nif.trim(),
    ...(derived ? {} : { entity: form.entity.trim() }),
    ...(alias ? { alias } : {}),
  };
}
