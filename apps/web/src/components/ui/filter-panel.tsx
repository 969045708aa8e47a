import { type ReactNode, useId, useState } from 'react';
import { cn } from '@/utils/cn';
import { ChevronRightIcon } from './icons';
import { cardClasses } from './surfaces';

type FilterPanelProps = {
  title: string;
  /** How many filters differ from the defaults; shown on the closed panel. */
  activeCount: number;
  children: ReactNode;
  className?: string;
};

/**
 * The filters of a list: always open beside the list from `lg`; on a phone folded behind a
 * disclosure button, so the list comes first and the filters are one tap away.
 */
export function FilterPanel({ title, activeCount, children, className }: FilterPanelProps) {
  const [isOpen, setOpen] = useState(false);
  const headingId = useId();
  const panelId = useId();
  return (
    <section aria-labelledby={headingId} className={cn(cardClasses, 'h-fit', className)}>
      <h2 id={headingId} className="text-base font-semibold text-gray-900 dark:text-gray-50">
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => setOpen(!isOpen)}
          className="flex min-h-12 w-full items-center justify-between gap-3 rounded-2xl px-4 py-2 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink lg:hidden"
        >
          <span>
            {title}
            {activeCount > 0 && ` (${activeCount})`}
          </span>
          <ChevronRightIcon
            className={cn(
              'size-5 text-gray-500 transition-transform motion-reduce:transition-none dark:text-gray-400',
              isOpen && 'rotate-90',
            )}
          />
        </button>
        <span className="hidden px-4 pt-4 lg:block">{title}</span>
      </h2>
      <div id={panelId} className={cn('px-4 pt-1 pb-4 lg:block lg:pt-3', !isOpen && 'hidden')}>
        {children}
      </div>
    </section>
  );
}
