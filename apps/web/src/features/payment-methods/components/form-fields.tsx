import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { useId } from 'react';
import { AlertIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** The field's error, shown under it and read out with it. */
  error?: string | undefined;
  hint?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  id?: string;
};

const inputBase =
  'block min-h-12 w-full rounded-xl border bg-white px-3.5 py-2.5 text-base text-gray-900 shadow-xs placeholder:text-gray-500 read-only:bg-gray-100 focus:outline-2 focus:-outline-offset-1 focus:outline-primary-ink disabled:opacity-70 dark:bg-gray-900 dark:text-gray-50 dark:placeholder:text-gray-400 dark:read-only:bg-gray-800';

/** A labelled input with its hint and error, both tied to it with aria-describedby. */
export function TextField({
  label,
  error,
  hint,
  className,
  id: idProp,
  ref,
  ...input
}: TextFieldProps) {
  const autoId = useId();
  const id = idProp ?? autoId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800 dark:text-gray-100">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cn(
          inputBase,
          'mt-1.5',
          error ? 'border-red-600 dark:border-red-400' : 'border-gray-400 dark:border-gray-500',
        )}
        {...input}
      />
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-gray-600 dark:text-gray-300">
          {hint}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300">
      <AlertIcon className="mt-px size-4 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

export const checkboxClasses =
  'mt-0.5 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-not-allowed';
