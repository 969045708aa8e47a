import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { requestPasswordReset } from '../api/forgot-password';
import { type AuthMessage, recoveryErrorMessage } from '../error-messages';
import { type FieldErrors, hasErrors, validateRecovery } from '../validation';
import { SuccessMark } from './auth-icons';
import { AuthCard } from './auth-card';
import { FormAlert, SubmitButton, TextField, textLinkClasses } from './form-fields';
import { useAuthTexts } from './use-auth-texts';

/** Spec §2 "Recovery": an e-mail form, then a success state with the way back to login. */
export function RecoverPasswordScreen() {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const [failure, setFailure] = useState<AuthMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sentTo) titleRef.current?.focus();
  }, [sentTo]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateRecovery({ email });
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (error) {
      setFailure(recoveryErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <AuthCard
        title={t('recovery.successTitle')}
        titleRef={titleRef}
        description={t('recovery.successDescription', { email: sentTo })}
        icon={<SuccessMark />}
      >
        <div className="flex flex-col items-center">
          <Link to={paths.login} className={buttonClasses('primary', 'min-h-12 w-full text-base')}>
            {t('recovery.backToLogin')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('recovery.title')}
      titleRef={titleRef}
      description={t('recovery.description')}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {failure && <FormAlert>{texts.error(failure)}</FormAlert>}
        <TextField
          ref={emailRef}
          label={t('fields.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email) setErrors({});
          }}
          error={texts.field(errors.email)}
          required
        />
        <SubmitButton
          busy={busy}
          label={t('recovery.submit')}
          busyLabel={t('recovery.submitting')}
        />
      </form>
      <p className="mt-4 text-center">
        <Link to={paths.login} className={textLinkClasses}>
          {t('recovery.backToLogin')}
        </Link>
      </p>
    </AuthCard>
  );
}
