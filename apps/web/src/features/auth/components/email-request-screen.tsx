import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import type { AuthMessage } from '../error-messages';
import { type FieldErrors, hasErrors, validateRecovery } from '../validation';
import { SuccessMark } from './auth-icons';
import { AuthCard } from './auth-card';
import { FormAlert, SubmitButton, TextField, textLinkClasses } from './form-fields';
import { useAuthTexts } from './use-auth-texts';

export type EmailRequestTexts = {
  title: string;
  description: string;
  submit: string;
  submitting: string;
  successTitle: string;
  successDescription: (email: string) => string;
  backToLogin: string;
};

/**
 * An e-mail form whose answer is always "check your mailbox" (the server says the same for any
 * address): the password recovery (spec §2) and "send me a link" (issue 24). A refusal (invalid
 * address, too many tries) is shown above the form, which keeps what was typed.
 */
export function EmailRequestScreen({
  texts,
  request,
  errorMessage,
  children,
}: {
  texts: EmailRequestTexts;
  request: (email: string) => Promise<void>;
  errorMessage: (error: unknown) => AuthMessage;
  /** Below the form (before the way back to sign-in). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('auth');
  const authTexts = useAuthTexts();
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
      await request(email.trim());
      setSentTo(email.trim());
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <AuthCard
        title={texts.successTitle}
        titleRef={titleRef}
        description={texts.successDescription(sentTo)}
        icon={<SuccessMark />}
      >
        <div className="flex flex-col items-center">
          <Link to={paths.login} className={buttonClasses('primary', 'min-h-12 w-full text-base')}>
            {texts.backToLogin}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={texts.title} titleRef={titleRef} description={texts.description}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {failure && <FormAlert>{authTexts.error(failure)}</FormAlert>}
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
          error={authTexts.field(errors.email)}
          required
        />
        <SubmitButton busy={busy} label={texts.submit} busyLabel={texts.submitting} />
      </form>
      {children}
      <p className="mt-4 text-center">
        <Link to={paths.login} className={textLinkClasses}>
          {texts.backToLogin}
        </Link>
      </p>
    </AuthCard>
  );
}
