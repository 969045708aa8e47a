import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { AlertIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';

const inputBase =
  'block w-full rounded-xl border bg-white px-3.5 py-2.5 text-base text-gray-900 shadow-xs placeholder:text-gray-500 focus:outline-2 focus:-outline-offset-1 focus:outline-primary-ink dark:bg-gray-900 dark:text-gray-50 dark:placeholder:text-gray-400';

const borderOf = (invalid: boolean) =>
  invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-400 dark:border-gray-500';

/** A field's error under it, read out with the field (aria-describedby). */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300">
      <AlertIcon className="mt-px size-4 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

type FieldFrameProps = {
  id: string;
  label: string;
  error: string | undefined;
  /** Read with the field after the error: a character count. */
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
};

function FieldFrame({ id, label, error, hint, className, children }: FieldFrameProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800 dark:text-gray-100">
        {label}
      </label>
      <div className="mt-1.5">{children}</div>
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
      {hint}
    </div>
  );
}

const describedBy = (id: string, error: string | undefined, hintId?: string) =>
  [error ? `${id}-error` : '', hintId ?? ''].filter(Boolean).join(' ') || undefined;

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: string;
  error: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled one-line text with its error. */
export function TextInput({ id, label, error, className, ref, ...input }: TextInputProps) {
  return (
    <FieldFrame id={id} label={label} error={error} className={className}>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        className={cn(inputBase, 'min-h-12', borderOf(Boolean(error)))}
        {...input}
      />
    </FieldFrame>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  id: string;
  label: string;
  error: string | undefined;
  /** "12 de 5000 caracteres": turns red once over. */
  count: { text: string; isOver: boolean };
  ref?: Ref<HTMLTextAreaElement>;
};

/**
 * A labelled text area with its error and a character count. No `maxLength`: a pasted text longer
 * than the limit is kept whole, and the count and the error say by how much it is over.
 */
export function TextArea({ id, label, error, count, className, ref, ...textarea }: TextAreaProps) {
  const countId = `${id}-count`;
  return (
    <FieldFrame
      id={id}
      label={label}
      error={error}
      className={className}
      hint={
        <p
          id={countId}
          className={cn(
            'mt-1.5 text-end text-xs tabular-nums',
            count.isOver
              ? 'font-semibold text-red-700 dark:text-red-300'
              : 'text-gray-600 dark:text-gray-300',
          )}
        >
          {count.text}
        </p>
      }
    >
      <textarea
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, countId)}
        className={cn(inputBase, 'min-h-40 resize-y', borderOf(Boolean(error)))}
        {...textarea}
      />
    </FieldFrame>
  );
}

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  id: string;
  label: ReactNode;
  error: string | undefined;
  /** Below the label: a link the label itself must not hold (a click there would tick the box). */
  extra?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** A checkbox with its label, a line below it and its error. */
export function Checkbox({ id, label, error, extra, ref, ...input }: CheckboxProps) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error)}
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
          {...input}
        />
        <div className="min-w-0">
          <label
            htmlFor={id}
            className="cursor-pointer text-sm font-medium text-gray-800 dark:text-gray-100"
          >
            {label}
          </label>
          {extra}
        </div>
      </div>
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}
