import { cn } from '@/utils/cn';

type SpinnerSize = 'sm' | 'md' | 'lg';
type SpinnerTone = 'neutral' | 'primary' | 'current';

type SpinnerProps = {
  /** Read out as a status; without one the spinner is decoration beside a text that says it. */
  label?: string;
  size?: SpinnerSize;
  /**
   * neutral: grey, shown before the tenant's colour is known; primary: the tenant's ink; current:
   * the text colour (inside a busy button).
   */
  tone?: SpinnerTone;
  className?: string;
};

const sizes: Record<SpinnerSize, string> = {
  sm: 'size-4 border-2',
  md: 'size-5 border-2',
  lg: 'size-10 border-4',
};

const tones: Record<SpinnerTone, string> = {
  neutral: 'border-gray-200 border-t-gray-600 dark:border-gray-700 dark:border-t-gray-300',
  primary: 'border-gray-300 border-t-primary-ink dark:border-gray-600 dark:border-t-primary-ink',
  current: 'border-current border-t-transparent',
};

/** The app's one spinner: a ring that turns (slowly when the system asks for less motion). */
export function Spinner({ label, size = 'lg', tone = 'neutral', className }: SpinnerProps) {
  const ring = (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block shrink-0 animate-spin rounded-full motion-reduce:animate-[spin_3s_linear_infinite]',
        sizes[size],
        tones[tone],
        label ? undefined : className,
      )}
    />
  );
  if (!label) return ring;
  return (
    <span role="status" aria-label={label} className={cn('inline-flex', className)}>
      {ring}
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
