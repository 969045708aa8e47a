import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { isWrongCurrentPassword, needsSignInAgain, tooManyAttempts } from '../error-messages';
import { FormAlert, PasswordField, SubmitButton } from './form-fields';
import { SignInAgain } from './sign-in-again';
import { useAuthTexts } from './use-auth-texts';

type StepUpFormProps = {
  /** What the password is asked for. */
  intro: string;
  /** The button's text while `onConfirm` runs. */
  busyLabel: string;
  /** Said when `onConfirm` fails for another reason than its proof. */
  failedText: string;
  /**
   * Makes the change with the typed password; rejects with the API's error. A wrong password,
   * too many tries and a sign-in too old are said here; the password typed stays.
   */
  onConfirm: (currentPassword: string) => Promise<void>;
  onCancel: () => void;
  className?: string;
};

type Failure = { kind: 'text'; text: string } | { kind: 'signInAgain' };

/**
 * The current password asked before a change that adds a way into the account (a passkey, the
 * second factor): an access token alone must not be enough to make it. For a customer who has a
 * password; one without skips it (their recent sign-in is the proof).
 */
export function StepUpForm({
  intro,
  busyLabel,
  failedText,
  onConfirm,
  onCancel,
  className,
}: StepUpFormProps) {
  const { t } = useTranslation('sessions');
  const authTexts = useAuthTexts();
  const { user } = useAuth();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (!password) {
      setError(t('stepUp.errors.required'));
      passwordRef.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onConfirm(password);
    } catch (caught) {
      if (!live.current) return;
      if (isWrongCurrentPassword(caught)) {
        setError(t('stepUp.errors.wrongPassword'));
        passwordRef.current?.focus();
      } else if (needsSignInAgain(caught)) {
        setFailure({ kind: 'signInAgain' });
      } else if (caught instanceof ApiError && caught.status === 429) {
        setFailure({ kind: 'text', text: authTexts.error(tooManyAttempts(caught)) });
      } else {
        setFailure({ kind: 'text', text: failedText });
      }
    } finally {
      if (live.current) setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className={cn('space-y-4', className)}
    >
      <p className="text-sm text-gray-700 dark:text-gray-300">{intro}</p>
      {failure?.kind === 'signInAgain' && <SignInAgain />}
      {failure?.kind === 'text' && (
        <FormAlert>
          <p>{failure.text}</p>
        </FormAlert>
      )}
      {/* Lets password managers offer the password of the right account. */}
      <input
        type="email"
        name="username"
        autoComplete="username"
        value={user?.email ?? ''}
        readOnly
        hidden
      />
      <PasswordField
        ref={passwordRef}
        label={t('stepUp.currentPassword')}
        name="current-password"
        autoComplete="current-password"
        value={password}
        error={error}
        data-autofocus
        autoFocus
        onChange={(event) => {
          setPassword(event.target.value);
          if (error) setError(undefined);
        }}
        required
      />
      <div className="flex flex-col gap-3">
        <SubmitButton busy={busy} label={t('stepUp.continue')} busyLabel={busyLabel} />
        <Button variant="secondary" className="min-h-12 w-full" disabled={busy} onClick={onCancel}>
          {t('stepUp.cancel')}
        </Button>
      </div>
    </form>
  );
}
