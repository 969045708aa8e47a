import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

/** Spec §2: four placeholders while the first page loads (ListState announces them). */
export function ListSkeleton() {
  return (
    <>
      <Skeleton className="h-4 w-16" />
      <ul className="mt-2 space-y-3">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} className={cn(cardClasses, 'space-y-2 p-4')}>
            <span className="flex justify-between gap-3">
              <Skeleton className="h-5 w-48" />
              <Skeleton className="h-4 w-12" />
            </span>
            <Skeleton className="h-4 w-full max-w-md" />
            <span className="flex gap-2 pt-2">
              <Skeleton className="h-10 w-24 rounded-xl" />
              <Skeleton className="h-10 w-24 rounded-xl" />
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
