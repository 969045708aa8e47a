import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { cardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { useNotificationsT } from '../use-notifications-t';
import { dangerButtonClasses } from './danger-button';
import { CheckIcon, TrashIcon } from './notification-icons';

/**
 * The multi-select bar, above the bottom bar on a phone: select all, how many are chosen, and
 * what to do with them. Deleting several asks first (the screen's dialog); marking read loses
 * nothing, so it does not. A plain raised card: a coloured border read as a focus ring (#22).
 */
export function SelectionBar({
  count,
  total,
  unreadChosen,
  busy,
  onSelectAll,
  onMarkRead,
  onDelete,
}: {
  count: number;
  total: number;
  unreadChosen: number;
  busy: boolean;
  onSelectAll: (all: boolean) => void;
  onMarkRead: () => void;
  onDelete: () => void;
}) {
  const { t } = useNotificationsT();
  const allRef = useRef<HTMLInputElement>(null);
  const isAll = total > 0 && count === total;
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = count > 0 && !isAll;
  }, [count, isAll]);
  return (
    <div className="sticky bottom-24 z-20 mt-6 md:bottom-4">
      <div
        className={cn(
          cardClasses,
          'flex flex-wrap items-center gap-x-4 gap-y-3 p-3 shadow-[0_8px_30px_rgb(0_0_0/0.18)] dark:shadow-[0_8px_30px_rgb(0_0_0/0.6)]',
        )}
      >
        <label className="flex min-h-11 cursor-pointer items-center gap-2 px-1 text-sm font-medium text-gray-900 dark:text-gray-100">
          <input
            ref={allRef}
            type="checkbox"
            checked={isAll}
            onChange={(event) => onSelectAll(event.target.checked)}
            className="size-5 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
          />
          {t('selection.all')}
        </label>
        <p aria-live="polite" className="text-sm text-gray-700 tabular-nums dark:text-gray-300">
          {t('selection.count', { count })}
        </p>
        <div className="flex w-full gap-2 sm:ms-auto sm:w-auto">
          <Button
            variant="secondary"
            className="flex-1 sm:flex-none"
            disabled={busy || unreadChosen === 0}
            onClick={onMarkRead}
          >
            <CheckIcon className="hidden size-4 sm:block" />
            {t('selection.markRead')}
          </Button>
          <button
            type="button"
            className={cn(dangerButtonClasses, 'shrink-0')}
            disabled={busy || count === 0}
            onClick={onDelete}
          >
            <TrashIcon className="size-4" />
            {t('selection.delete')}
          </button>
        </div>
      </div>
    </div>
  );
}
