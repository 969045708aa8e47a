import { type ComponentProps, useId, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { cn } from '@/utils/cn';
import { EyeIcon, EyeOffIcon } from './auth-icons';

/** The app's one text field and form alert (components/ui/text-field.tsx), as the sign-in screens use them. */
export { FormAlert, TextField } from '@/components/ui/text-field';

type TextFieldProps = ComponentProps<typeof TextField>;

/** A text link of the sign-in screens (a 44 px target). */
export const textLinkClasses =
  'inline-flex min-h-11 items-center rounded text-sm font-medium text-primary-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-primary-ink';

/** A password input with a show/hide button (the characters can be checked before sending). */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const { t } = useTranslation('auth');
  const [visible, setVisible] = useState(false);
  const autoId = useId();
  const id = props.id ?? autoId;
  return (
    <TextField
      {...props}
      id={id}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-controls={id}
          aria-label={visible ? t('fields.hidePassword') : t('fields.showPassword')}
          className="inline-flex size-11 items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:bg-gray-700"
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      }
    />
  );
}

type SubmitButtonProps = { busy: boolean; label: string; busyLabel: string; className?: string };

/** The form's submit: disabled with a spinner while the call runs (no double submits). */
export function SubmitButton({ busy, label, busyLabel, className }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      disabled={busy}
      className={cn(
        'inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-xl bg-primary-fill px-4 py-2 text-base font-semibold text-on-primary shadow-sm transition hover:shadow-md hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-wait disabled:opacity-70',
        className,
      )}
    >
      {busy && <Spinner size="sm" tone="current" />}
      {busy ? busyLabel : label}
    </button>
  );
}
