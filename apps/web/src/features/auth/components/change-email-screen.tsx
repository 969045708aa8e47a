import { emailPattern } from '@portal/contract/common';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { requestEmailChange } from '../api/email-change';
import { needsSignInAgain } from '../error-messages';
import { DonePage } from './done-page';
import { useWithoutPassword } from './use-without-password';
import { FormAlert, PasswordField, SubmitButton } from './form-fields';
import { SignInAgain } from './sign-in-again';

type Errors = { email?: string; password?: string };
type Failure = 'rateLimited' | 'failed' | 'signInAgain';

/**
 * Issue 23: the sign-in e-mail, changed once the new address confirms it. The current password
 * proves it is the owner (one who only signs in by link, Google, Apple or Microsoft has none and
 * is not asked: a recent sign-in is their proof, else they are sent to sign in again); the screen
 * then says where the link went and that nothing changed yet.
 */
export function ChangeEmailScreen() {
  const { t } = useTranslation('sessions');
  const { user } = useAuth();
  const current = user?.email ?? '';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const withoutPassword = useWithoutPassword();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sentTo) titleRef.current?.focus();
  }, [sentTo]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const found: Errors = {};
    const typed = email.trim();
    if (!typed) found.email = t('emailChange.errors.required');
    else if (!emailPattern.test(typed)) found.email = t('emailChange.errors.invalidEmail');
    else if (typed.toLowerCase() === current.toLowerCase())
      found.email = t('emailChange.errors.same');
    if (!withoutPassword && !password) found.password = t('emailChange.errors.passwordRequired');
    setErrors(found);
    if (found.email || found.password) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      setSentTo(await requestEmailChange(typed, withoutPassword ? '' : password));
    } catch (error) {
      const named = error instanceof ApiError && error.status === 422 ? error.errors : undefined;
      if (named?.current_password) {
        setErrors({ password: t('emailChange.errors.wrongPassword') });
        passwordRef.current?.focus();
      } else if (named?.email) {
        const code = named.email[0];
        setErrors({
          email:
            code === 'email_taken'
              ? t('emailChange.errors.taken')
              : code === 'invalid_value'
                ? t('emailChange.errors.same')
                : t('emailChange.errors.invalidEmail'),
        });
        emailRef.current?.focus();
      } else if (needsSignInAgain(error)) {
        setFailure('signInAgain');
      } else {
        setFailure(error instanceof ApiError && error.status === 429 ? 'rateLimited' : 'failed');
      }
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <DonePage
        title={t('emailChange.sentTitle')}
        titleRef={titleRef}
        text={t('emailChange.sent', { email: sentTo, current })}
        backLabel={t('emailChange.back')}
      />
    );
  }

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('emailChange.title')}</h1>
      <p className="mt-2 break-words text-gray-700 dark:text-gray-300">
        {t('emailChange.intro', { email: current })}
      </p>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className={cn(cardClasses, 'mt-6 space-y-4 p-5 sm:p-6')}
      >
        {failure === 'signInAgain' && <SignInAgain />}
        {failure && failure !== 'signInAgain' && (
          <FormAlert>
            <p>{t(`emailChange.errors.${failure}`)}</p>
          </FormAlert>
        )}
        <TextField
          ref={emailRef}
          label={t('emailChange.newEmail')}
          type="email"
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email) setErrors((e) => ({ ...e, email: undefined }));
          }}
        />
        {!withoutPassword && (
          <PasswordField
            ref={passwordRef}
            label={t('emailChange.currentPassword')}
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(event) => {
              setPassword(event.target.value);
              if (errors.password) setErrors((e) => ({ ...e, password: undefined }));
            }}
          />
        )}
        <SubmitButton
          busy={busy}
          label={t('emailChange.submit')}
          busyLabel={t('emailChange.busy')}
        />
        <Link to={paths.userProfile} className={buttonClasses('secondary', 'min-h-12 w-full')}>
          {t('emailChange.back')}
        </Link>
      </form>
    </Page>
  );
}
