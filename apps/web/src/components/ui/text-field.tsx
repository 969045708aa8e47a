import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { useId } from 'react';
import { cn } from '@/utils/cn';
import { AlertIcon } from './icons';

/**
 * The app's one text field, text area, select and checkbox (issue 21: there were four copies).
 * An invalid field stays red while it has the focus (review #19: the focus ring used to replace the
 * red border, so the field the form had just focused for its error looked valid): its border and
 * focus ring are both red, and the ring alone says where the focus is.
 */
export function fieldClasses(invalid: boolean, className?: string): string {
  return cn(
    'block w-full min-w-0 rounded-xl border bg-white px-3.5 py-2.5 text-base text-gray-900 shadow-xs placeholder:text-gray-500 focus:outline-2 focus:-outline-offset-1 read-only:bg-gray-100 disabled:opacity-70 dark:bg-gray-900 dark:text-gray-50 dark:placeholder:text-gray-400 dark:read-only:bg-gray-800 dark:[color-scheme:dark]',
    invalid
      ? 'border-red-600 focus:outline-red-600 dark:border-red-400 dark:focus:outline-red-400'
      : 'border-gray-400 focus:outline-primary-ink dark:border-gray-500',
    className,
  );
}

const labelClasses = 'block text-sm font-medium text-gray-800 dark:text-gray-100';

/** A field's error under it, read out with the field (aria-describedby). */
export function FieldError({ id, children }: { id?: string | undefined; children: ReactNode }) {
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300">
      <AlertIcon className="mt-px size-4 shrink-0" />
      <span className="min-w-0 break-words">{children}</span>
    </p>
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
      <div className="min-w-0 flex-1 break-words">{children}</div>
    </div>
  );
}

const joinIds = (...ids: (string | false | undefined)[]): string | undefined =>
  ids.filter(Boolean).join(' ') || undefined;

type FrameProps = {
  id: string;
  label: ReactNode;
  error: string | undefined;
  hint: ReactNode;
  hintId: string;
  className: string | undefined;
  children: ReactNode;
};

function FieldFrame({ id, label, error, hint, hintId, className, children }: FrameProps) {
  return (
    <div className={cn('min-w-0', className)}>
      <label htmlFor={id} className={labelClasses}>
        {label}
      </label>
      <div className="relative mt-1.5">{children}</div>
      {hint && (
        <div id={hintId} className="mt-1.5 text-xs text-gray-600 dark:text-gray-300">
          {hint}
        </div>
      )}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}

type CommonProps = {
  label: ReactNode;
  /** The field's own error, shown under it and tied to it with aria-describedby. */
  error?: string | undefined;
  /** Marks the field invalid for an error shown elsewhere (the form's alert, `describedBy`). */
  invalid?: boolean | undefined;
  /** More ids read with the field (a text shown elsewhere). */
  describedBy?: string | undefined;
  hint?: ReactNode;
  id?: string | undefined;
};

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> &
  CommonProps & {
    /** A button inside the field's end (show the password, open a calendar). */
    trailing?: ReactNode;
    ref?: Ref<HTMLInputElement>;
  };

/** A labelled one-line input with its hint and error, both read out with it. */
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
  const hintId = `${id}-hint`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  return (
    <FieldFrame
      id={id}
      label={label}
      error={error}
      hint={hint}
      hintId={hintId}
      className={className}
    >
      <input
        ref={ref}
        id={id}
        aria-invalid={isInvalid || undefined}
        aria-describedby={joinIds(error && `${id}-error`, hint ? hintId : undefined, describedBy)}
        className={fieldClasses(isInvalid, cn('min-h-12', trailing ? 'pe-12' : undefined))}
        {...input}
      />
      {trailing && (
        <div className="absolute inset-y-0 end-0 flex items-center pe-1">{trailing}</div>
      )}
    </FieldFrame>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> &
  CommonProps & {
    /** "12 de 5000 caracteres": turns red once over. */
    count?: { text: string; isOver: boolean };
    ref?: Ref<HTMLTextAreaElement>;
  };

/**
 * A labelled text area with its error and an optional character count. No `maxLength`: a pasted
 * text longer than the limit is kept whole, and the count and the error say by how much it is over.
 */
export function TextArea({
  label,
  error,
  invalid,
  describedBy,
  hint,
  count,
  className,
  id: idProp,
  ref,
  ...textarea
}: TextAreaProps) {
  const autoId = useId();
  const id = idProp ?? autoId;
  const hintId = `${id}-hint`;
  const countId = `${id}-count`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  return (
    <div className={cn('min-w-0', className)}>
      <FieldFrame id={id} label={label} error={error} hint={hint} hintId={hintId} className="">
        <textarea
          ref={ref}
          id={id}
          aria-invalid={isInvalid || undefined}
          aria-describedby={joinIds(
            error && `${id}-error`,
            hint ? hintId : undefined,
            count && countId,
            describedBy,
          )}
          className={fieldClasses(isInvalid, 'min-h-40 resize-y')}
          {...textarea}
        />
      </FieldFrame>
      {count && (
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
      )}
    </div>
  );
}

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  id?: string | undefined;
  label: ReactNode;
  error?: string | undefined;
  /** Below the label: a link the label itself must not hold (a click there would tick the box). */
  extra?: ReactNode;
  /** More ids read with the box. */
  describedBy?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A checkbox with its label, a line below it and its error. The box and its label are one row at
 * least 44 px tall that ticks the box (review #26: a 20 px box with a short label was the only target on a phone).
 */
export function Checkbox({
  id: idProp,
  label,
  error,
  extra,
  describedBy,
  className,
  ref,
  ...input
}: CheckboxProps) {
  const autoId = useId();
  const id = idProp ?? autoId;
  return (
    <div className={className}>
      <label
        htmlFor={id}
        className="flex min-h-11 cursor-pointer items-start gap-3 py-2.5 text-sm font-medium text-gray-800 dark:text-gray-100"
      >
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={joinIds(error && `${id}-error`, describedBy)}
          className={cn(
            'size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed',
            error
              ? 'focus-visible:outline-red-600 dark:focus-visible:outline-red-400'
              : 'focus-visible:outline-primary-ink',
          )}
          {...input}
        />
        <span className="min-w-0 break-words">{label}</span>
      </label>
      {extra && <div className="ps-8">{extra}</div>}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}
