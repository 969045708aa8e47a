import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';
import { EyeIcon, EyeOffIcon } from './auth-icons';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** The field's own error, shown under it and tied to it with aria-describedby. */
  error?: string | undefined;
  /** Marks the field invalid for an error shown elsewhere (the form's alert, `describedBy`). */
  invalid?: boolean;
  describedBy?: string | undefined;
  hint?: string;
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
  id?: string;
};

/** A text link of the sign-in screens (a 44 px target). */
export const textLinkClasses =
  'inline-flex min-h-11 items-center rounded text-sm font-medium text-primary-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-primary-ink';

const inputBase =
  'block min-h-12 w-full rounded-xl border bg-white px-3.5 py-2.5 text-base text-gray-900 shadow-xs placeholder:text-gray-500 focus:outline-2 focus:-outline-offset-1 focus:outline-primary-ink dark:bg-gray-900 dark:text-gray-50 dark:placeholder:text-gray-400';

/** A labelled input with its hint and error, both read out with it. */
export function TextField({
  label,
  error,
  invalid,
  describedBy,
  hint,
  trailing,
  className,
  id: idProp,
  ref,
  ...input
}: TextFieldProps) {
  const autoId = useId();
  const id = idProp ?? autoId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  const describedByIds =
    [error ? errorId : '', hint ? hintId : '', describedBy ?? ''].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800 dark:text-gray-100">
        {label}
      </label>
      <div className="relative mt-1.5">
        <input
          ref={ref}
          id={id}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedByIds}
          className={cn(
            inputBase,
            trailing ? 'pe-12' : undefined,
            isInvalid
              ? 'border-red-600 dark:border-red-400'
              : 'border-gray-400 dark:border-gray-500',
          )}
          {...input}
        />
        {trailing && (
          <div className="absolute inset-y-0 end-0 flex items-center pe-1">{trailing}</div>
        )}
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-gray-600 dark:text-gray-300">
          {hint}
        </p>
      )}
      {error && (
        <p
          id={errorId}
          className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300"
        >
          <AlertIcon className="mt-px size-4 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}

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

/** The form's own message (a failed call), announced as it appears. */
export function FormAlert({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <div
      id={id}
      role="alert"
      className="flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 dark:bg-red-950/50 dark:text-red-100 dark:ring-red-900"
    >
      <AlertIcon className="mt-px size-5 shrink-0" />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
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
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-[spin_3s_linear_infinite]"
        />
      )}
      {busy ? busyLabel : label}
    </button>
  );
}
