import { useTranslation } from '@/lib/use-translation';
import type { AuthMessage } from '../error-messages';
import { type FieldErrorCode, passwordMinLength } from '../validation';

/** The translated text of a field's error code (spec §5) and of a failed call (spec §8). */
export function useAuthTexts() {
  const { t } = useTranslation('auth');
  return {
    field(code: FieldErrorCode | undefined): string | undefined {
      switch (code) {
        case undefined:
          return undefined;
        case 'required':
          return t('validation.required');
        case 'invalid_email':
          return t('validation.invalidEmail');
        case 'too_short':
          return t('validation.passwordTooShort', { min: passwordMinLength });
        case 'mismatch':
          return t('validation.passwordMismatch');
        case 'password_common':
          return t('validation.passwordCommon');
        case 'password_contains_email':
          return t('validation.passwordContainsEmail');
        case 'password_contains_name':
          return t('validation.passwordContainsName');
      }
    },
    error(message: AuthMessage): string {
      return message.key === 'tooManyAttempts'
        ? t('errors.tooManyAttempts', { count: message.count ?? 1 })
        : t(`errors.${message.key}`);
    },
  };
}
