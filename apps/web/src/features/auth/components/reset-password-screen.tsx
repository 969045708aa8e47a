import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { useVisualConfig } from '@/lib/visual-config';
import { resetPassword } from '../api/reset-password';
import {
  type AuthMessage,
  isPasswordRefusal,
  needsNewResetLink,
  resetErrorMessage,
} from '../error-messages';
import { type FieldErrors, hasErrors, validateReset } from '../validation';
import { SuccessMark } from './auth-icons';
import { AuthCard } from './auth-card';
import { FormAlert, SubmitButton, textLinkClasses } from './form-fields';
import { NewPasswordFields } from './new-password-fields';
import { useAuthTexts } from './use-auth-texts';

type Field = 'password' | 'confirmation';

type ResetPasswordScreenProps = { token: string; email: string };

/**
 * Spec §2 "Reset": new password and confirmation for the link's token and e-mail, then a success
 * state with the way to login. A link that expired or was used offers to request a new one.
 */
export function ResetPasswordScreen({ token, email }: ResetPasswordScreenProps) {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<AuthMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const failureId = useId();
  const { companyName, legal } = useVisualConfig();
  // What the new password must not contain (the server checks the same, with the same code).
  const context = useMemo(
    () => ({ email, organisationNames: [companyName, legal.name].filter(Boolean) }),
    [email, companyName, legal.name],
  );

  useEffect(() => {
    if (done) titleRef.current?.focus();
  }, [done]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateReset({ password, confirmation }, context);
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      (found.password ? passwordRef : confirmationRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      await resetPassword({ token, email, password, confirmation });
      setDone(true);
    } catch (error) {
      const message = resetErrorMessage(error);
      setFailure(message);
      if (isPasswordRefusal(message)) passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthCard
        title={t('reset.successTitle')}
        titleRef={titleRef}
        description={t('reset.successDescription')}
        icon={<SuccessMark />}
      >
        <div className="flex flex-col items-center">
          <Link to={paths.login} className={buttonClasses('primary', 'min-h-12 w-full text-base')}>
            {t('reset.goToLogin')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  const weak = failure ? isPasswordRefusal(failure) : false;
  return (
    <AuthCard
      title={t('reset.title')}
      titleRef={titleRef}
      description={t('reset.description', { email })}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {failure && (
          <FormAlert id={failureId}>
            <p>{texts.error(failure)}</p>
            {needsNewResetLink(failure) && (
              <Link
                to={paths.recoverPassword}
                className="mt-1 inline-flex min-h-11 items-center font-semibold underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-current"
              >
                {t('reset.requestNewLink')}
              </Link>
            )}
          </FormAlert>
        )}
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPassword={(event) => {
            setPassword(event.target.value);
            if (errors.password) setErrors((current) => ({ ...current, password: undefined }));
          }}
          onConfirmation={(event) => {
            setConfirmation(event.target.value);
            if (errors.confirmation) {
              setErrors((current) => ({ ...current, confirmation: undefined }));
            }
          }}
          errors={errors}
          passwordRef={passwordRef}
          confirmationRef={confirmationRef}
          refusedBy={weak ? failureId : undefined}
          context={context}
        />
        <SubmitButton busy={busy} label={t('reset.submit')} busyLabel={t('reset.submitting')} />
      </form>
      <p className="mt-4 text-center">
        <Link to={paths.login} className={textLinkClasses}>
          {t('recovery.backToLogin')}
        </Link>
      </p>
    </AuthCard>
  );
}
