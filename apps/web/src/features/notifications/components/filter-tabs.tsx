import { cn } from '@/utils/cn';
import { type NotificationFilter, notificationFilters } from '../api/get-notifications';
import { useNotificationsT } from '../use-notifications-t';

/**
 * All / unread / read (spec §2). Each tab is as wide as its label and never wraps it: the Basque
 * "Irakurri gabeak" fits on one line at 390 px (review #22).
 */
export function FilterTabs({
  value,
  onChange,
}: {
  value: NotificationFilter;
  onChange: (filter: NotificationFilter) => void;
}) {
  const { t } = useNotificationsT();
  return (
    <div
      role="group"
      aria-label={t('filters.label')}
      className="mt-5 flex w-full rounded-xl bg-gray-100 p-1 ring-1 ring-gray-200 sm:w-fit dark:bg-gray-900 dark:ring-gray-700"
    >
      {notificationFilters.map((filter) => (
        <button
          key={filter}
          type="button"
          aria-pressed={filter === value}
          onClick={() => onChange(filter)}
          className={cn(
            'min-h-11 flex-auto rounded-lg px-2 text-sm font-medium whitespace-nowrap transition focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary-ink sm:flex-none sm:px-4',
            filter === value
              ? 'bg-white text-gray-900 shadow-sm ring-1 ring-gray-200 dark:bg-gray-700 dark:text-gray-50 dark:ring-gray-600'
              : 'text-gray-700 hover:bg-white/60 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-gray-50',
          )}
        >
          {t(`filters.${filter}`)}
        </button>
      ))}
    </div>
  );
}
