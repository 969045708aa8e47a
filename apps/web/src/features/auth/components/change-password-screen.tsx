import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { changePassword } from '../api/change-password';
import { requestPasswordReset } from '../api/forgot-password';
import { DonePage } from './done-page';
import { useWithoutPassword } from './use-without-password';
import { type AuthMessage, changeErrorMessage, isPasswordRefusal } from '../error-messages';
import { type FieldErrors, hasErrors, validateChange } from '../validation';
import { FormAlert, PasswordField, SubmitButton, textLinkClasses } from './form-fields';
import { NewPasswordFields } from './new-password-fields';
import { useAuthTexts } from './use-auth-texts';

type Field = 'current' | 'password' | 'confirmation';

/**
 * From the profile (review #13): the current password, then the new one twice, with the reset's
 * rules and strength meter. On success every other session has ended (the server's doing); this
 * one stays, and the screen says so. A refusal keeps what was typed and focuses the field at fault.
 */
export function ChangePasswordScreen() {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  const { user } = useAuth();
  const { companyName, legal } = useVisualConfig();
  const [values, setValues] = useState({ current: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<AuthMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const failureId = useId();
  const email = user?.email ?? '';
  // What the new password must not contain (the server checks the same, with the same code).
  const context = useMemo(
    () => ({ email, organisationNames: [companyName, legal.name].filter(Boolean) }),
    [email, companyName, legal.name],
  );

  useEffect(() => {
    if (done) titleRef.current?.focus();
  }, [done]);

  // A customer who only signs in with Google, Apple or Microsoft has no password to change: they
  // are offered the e-mailed link that creates one.
  const withoutPassword = useWithoutPassword();

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateChange(values, context);
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      const first = found.current ? currentRef : found.password ? passwordRef : confirmationRef;
      first.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await changePassword(values);
      setDone(true);
    } catch (error) {
      const message = changeErrorMessage(error);
      setFailure(message);
      if (message.key === 'wrongPassword') currentRef.current?.focus();
      else if (isPasswordRefusal(message)) passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <DonePage
        title={t('change.successTitle')}
        titleRef={titleRef}
        text={t('change.successDescription')}
        backLabel={t('change.backToProfile')}
      />
    );
  }

  if (withoutPassword) return <CreatePassword email={email} />;

  const wrongCurrent = failure?.key === 'wrongPassword';
  const weak = failure ? isPasswordRefusal(failure) : false;
  return (
    <Page width="form">
      <h1 ref={titleRef} tabIndex={-1} className={cn(pageTitleClasses, 'focus:outline-none')}>
        {t('change.title')}
      </h1>
      <p className="mt-2 text-gray-700 dark:text-gray-300">{t('change.description')}</p>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className={cn(cardClasses, 'mt-6 space-y-4 p-5 sm:p-6')}
      >
        {failure && (
          <FormAlert id={failureId}>
            <p>{texts.error(failure)}</p>
          </FormAlert>
        )}
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          ref={currentRef}
          label={t('change.currentPassword')}
          name="current-password"
          autoComplete="current-password"
          value={values.current}
          onChange={set('current')}
          error={texts.field(errors.current)}
          invalid={wrongCurrent}
          describedBy={wrongCurrent ? failureId : undefined}
          required
        />
        <NewPasswordFields
          password={values.password}
          confirmation={values.confirmation}
          onPassword={set('password')}
          onConfirmation={set('confirmation')}
          errors={errors}
          passwordRef={passwordRef}
          confirmationRef={confirmationRef}
          refusedBy={weak ? failureId : undefined}
          context={context}
        />
        <p className="text-sm text-gray-600 dark:text-gray-300">{t('change.otherSessions')}</p>
        <SubmitButton busy={busy} label={t('change.submit')} busyLabel={t('reset.submitting')} />
      </form>
      <p className="mt-4">
        <Link to={paths.userProfile} className={textLinkClasses}>
          {t('change.backToProfile')}
        </Link>
      </p>
    </Page>
  );
}

/** For a customer without a password: the reset link, sent to their own address, creates one. */
function CreatePassword({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state === 'sent' || state === 'failed') statusRef.current?.focus();
  }, [state]);
  const send = () => {
    if (state === 'sending') return;
    setState('sending');
    requestPasswordReset(email).then(
      () => setState('sent'),
      () => setState('failed'),
    );
  };
  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('change.noPassword.title')}</h1>
      <div className={cn(cardClasses, 'mt-6 space-y-4 p-5 sm:p-6')}>
        <p className="text-gray-700 dark:text-gray-300">
          {t('change.noPassword.description', { email })}
        </p>
        {state === 'sent' ? (
          <p
            ref={statusRef}
            tabIndex={-1}
            role="status"
            className="rounded-xl bg-green-50 p-3 text-sm font-medium text-green-900 ring-1 ring-green-200 focus:outline-none dark:bg-green-950/50 dark:text-green-100 dark:ring-green-900"
          >
            {t('change.noPassword.sent', { email })}
          </p>
        ) : (
          <>
            {state === 'failed' && (
              <FormAlert>
                <span ref={statusRef} tabIndex={-1} className="focus:outline-none">
                  {t('change.noPassword.failed')}
                </span>
              </FormAlert>
            )}
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                send();
              }}
            >
              <SubmitButton
                busy={state === 'sending'}
                label={t('change.noPassword.submit')}
                busyLabel={t('recovery.submitting')}
              />
            </form>
          </>
        )}
        <Link to={paths.userProfile} className={buttonClasses('secondary', 'min-h-12 w-full')}>
          {t('change.backToProfile')}
        </Link>
      </div>
    </Page>
  );
}
