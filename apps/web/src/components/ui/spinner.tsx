import { cn } from '@/utils/cn';

type SpinnerProps = { label: string; className?: string };

/** Neutral grey: it shows before the tenant's colour is known. */
export function Spinner({ label, className }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className={cn('inline-flex', className)}>
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-gray-200 border-t-gray-600 motion-reduce:animate-[spin_3s_linear_infinite] dark:border-gray-700 dark:border-t-gray-300"
      />
    </span>
  );
}

/** Replaces the whole app while the session, branding or translations load (spec §2). */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div className="fixed inset-0 grid place-items-center">
      <Spinner label={label} />
    </div>
  );
}
