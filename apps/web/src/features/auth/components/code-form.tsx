import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { FormAlert, SubmitButton, TextField } from './form-fields';

/**
 * One code to type: six digits from the authenticator app (numeric keyboard, the phone's one-time
 * code autofill), or a recovery code when `recovery`. Empty is refused here; what the server
 * refuses comes back as `failure` and moves the focus to the field.
 */
export function CodeForm({
  recovery = false,
  submitLabel,
  busyLabel,
  onSubmit,
  children,
}: {
  recovery?: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Answers the failure to show, or null when the code was taken. */
  onSubmit: (code: string) => Promise<string | null>;
  /** Below the button. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('sessions');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const alertId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (!code.trim()) {
      setError(t('verify.required'));
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    const refused = await onSubmit(code.trim());
    setBusy(false);
    if (refused) {
      setFailure(refused);
      inputRef.current?.select();
      inputRef.current?.focus();
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      {failure && <FormAlert id={alertId}>{failure}</FormAlert>}
      <TextField
        ref={inputRef}
        label={recovery ? t('verify.recoveryCode') : t('verify.code')}
        name={recovery ? 'recovery-code' : 'one-time-code'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize="none"
        spellCheck={false}
        maxLength={recovery ? 16 : 6}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
        error={error}
        invalid={Boolean(failure)}
        describedBy={failure ? alertId : undefined}
        required
      />
      <SubmitButton busy={busy} label={submitLabel} busyLabel={busyLabel} />
      {children}
    </form>
  );
}
