import { usePaymentMethodsTexts } from '../texts';
import { type FieldErrorCode, maxLengths } from '../utils/field-rules';

/** The translated text of a field's error code (spec §5 "Generic messages"). */
export function useFieldErrorText() {
  const t = usePaymentMethodsTexts();
  return (code: FieldErrorCode | undefined, field: keyof typeof maxLengths): string | undefined => {
    switch (code) {
      case undefined:
        return undefined;
      case 'required':
        return t('validation.required');
      case 'too_long':
        return t('validation.tooLong', { max: maxLengths[field] });
      case 'invalid_iban':
        return t('validation.invalidIban');
      case 'iban_not_sepa':
        return t('validation.ibanNotSepa');
      case 'invalid_nif':
        return t('validation.invalidNif');
      case 'invalid_characters':
        return t('validation.invalidCharacters');
    }
  };
}
