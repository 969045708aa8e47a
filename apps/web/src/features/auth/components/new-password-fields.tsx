import { type ChangeEvent, type RefObject, useId } from 'react';
import { useTranslation } from '@/lib/use-translation';
import type { TPasswordContext } from '@portal/contract/password-rules';
import { PasswordField } from './form-fields';
import type { FieldErrors } from '../validation';
import { PasswordStrengthMeter } from './password-strength-meter';
import { useAuthTexts } from './use-auth-texts';

type NewPasswordFieldsProps = {
  password: string;
  confirmation: string;
  onPassword: (event: ChangeEvent<HTMLInputElement>) => void;
  onConfirmation: (event: ChangeEvent<HTMLInputElement>) => void;
  /** Each field's error code (the screen's checks). */
  errors: FieldErrors<'password' | 'confirmation'>;
  passwordRef: RefObject<HTMLInputElement | null>;
  confirmationRef: RefObject<HTMLInputElement | null>;
  /** The server refused the new password: the field is marked and described by `failureId`. */
  refusedBy?: string | undefined;
  /** What the new password must not contain (the server checks the same). */
  context: TPasswordContext;
};

/**
 * The new password with its rules and strength as the user types, then its confirmation: the reset
 * screen's and the profile's change screen's, the same fields and the same words.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
  errors,
  passwordRef,
  confirmationRef,
  refusedBy,
  context,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  const strengthId = useId();
  return (
    <>
      <PasswordField
        ref={passwordRef}
        label={t('fields.newPassword')}
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        hint={t('reset.passwordHint')}
        error={texts.field(errors.password)}
        invalid={refusedBy !== undefined}
        describedBy={[refusedBy ?? '', strengthId].filter(Boolean).join(' ')}
        required
      />
      <PasswordStrengthMeter password={password} context={context} id={strengthId} />
      <PasswordField
        ref={confirmationRef}
        label={t('fields.confirmPassword')}
        name="confirm-password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmation}
        error={texts.field(errors.confirmation)}
        required
      />
    </>
  );
}
