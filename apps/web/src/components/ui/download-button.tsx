import { useId, type ReactNode } from 'react';
import { cn } from '@/utils/cn';
import { buttonClasses, type ButtonVariant } from './button';
import { DownloadIcon } from './icons';

/**
 * A download button with its states: a spinner while the link is asked for (and the button
 * disabled, so one press is one download), and the error next to it, announced, when it failed.
 */
export function DownloadButton({
  onDownload,
  isPending,
  isError,
  errorText,
  children,
  variant = 'secondary',
  className,
  ariaLabel,
  disabled,
}: {
  onDownload: () => void;
  isPending: boolean;
  isError: boolean;
  errorText: string;
  children: ReactNode;
  variant?: ButtonVariant;
  className?: string;
  ariaLabel?: string;
  disabled?: boolean;
}) {
  const errorId = useId();
  return (
    <span className={cn('inline-flex flex-col items-start', className)}>
      <button
        type="button"
        onClick={onDownload}
        disabled={isPending || disabled}
        aria-busy={isPending}
        aria-label={ariaLabel}
        aria-describedby={isError ? errorId : undefined}
        className={buttonClasses(variant, 'w-full sm:w-auto')}
      >
        {isPending ? (
          <span
            aria-hidden="true"
            className="size-5 animate-spin rounded-full border-2 border-gray-300 border-t-gray-700 motion-reduce:animate-[spin_3s_linear_infinite] dark:border-gray-600 dark:border-t-gray-200"
          />
        ) : (
          <DownloadIcon className="size-5" />
        )}
        {children}
      </button>
      {isError && (
        <span id={errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {errorText}
        </span>
      )}
    </span>
  );
}
