import { cn } from '@/utils/cn';

export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink';

/** An icon button of the header (44 px target, visible focus), without its `display`. */
export const iconButtonBase = cn(
  'size-11 shrink-0 items-center justify-center rounded-xl text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800',
  focusRing,
);

export const iconButton = cn('inline-flex', iconButtonBase);
