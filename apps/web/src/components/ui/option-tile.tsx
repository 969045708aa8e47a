import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/utils/cn';
import { ChevronRightIcon } from './icons';
import { cardClasses, interactiveCardClasses } from './surfaces';

type OptionTileProps = {
  icon: ReactNode;
  label: string;
  description?: string;
  /** Where it leads; without it the option is shown disabled with `disabledNote`. */
  to?: string;
  disabledNote?: string;
};

const row = 'flex h-full min-h-18 items-center gap-3 p-4';

/**
 * An option of a grid (My activity, the profile's additional options): a card that links to a
 * screen, or the same card dashed and inert for an option that is not available yet.
 */
export function OptionTile({ icon, label, description, to, disabledNote }: OptionTileProps) {
  if (!to) {
    return (
      <div
        aria-disabled="true"
        className={cn(
          row,
          'rounded-2xl border border-dashed border-gray-300 text-gray-600 dark:border-gray-600 dark:text-gray-400',
        )}
      >
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-gray-100 dark:bg-gray-800">
          {icon}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold">{label}</span>
          {disabledNote && <span className="block text-sm">{disabledNote}</span>}
        </span>
      </div>
    );
  }
  return (
    <Link to={to} className={cn(cardClasses, interactiveCardClasses, row)}>
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
        {icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-gray-900 dark:text-gray-50">{label}</span>
        {description && (
          <span className="block text-sm text-gray-600 dark:text-gray-300">{description}</span>
        )}
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
    </Link>
  );
}
