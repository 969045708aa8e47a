import { cn } from '@/utils/cn';

/** A grey placeholder block shown while data loads; hidden from assistive technology. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'block animate-pulse rounded-md bg-gray-200 motion-reduce:animate-none dark:bg-gray-700',
        className,
      )}
    />
  );
}
