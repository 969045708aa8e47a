import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

/** A profile form's data could not be read: what failed, and a button to try again. */
export function FormLoadError({
  message,
  retryLabel,
  onRetry,
  retrying,
}: {
  message: string;
  retryLabel: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div
      role="alert"
      className={cn(cardClasses, 'mt-6 flex flex-col items-center gap-4 p-6 text-center')}
    >
      <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
      <p className="font-medium text-gray-900 dark:text-gray-50">{message}</p>
      <Button variant="secondary" onClick={onRetry} disabled={retrying}>
        {retryLabel}
      </Button>
    </div>
  );
}

/** A profile form while its data loads: four label-and-field placeholders, announced once. */
export function FormLoading({ label }: { label: string }) {
  return (
    <div aria-busy="true" className={cn(cardClasses, 'mt-6 space-y-4 p-5')}>
      <p role="status" className="sr-only">
        {label}
      </p>
      {[1, 2, 3, 4].map((row) => (
        <div key={row} className="space-y-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-12 w-full" />
        </div>
      ))}
    </div>
  );
}
