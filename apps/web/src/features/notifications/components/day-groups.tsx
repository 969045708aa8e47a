import { type ReactNode, type Ref, useId } from 'react';
import type { NotificationItem } from '../api/get-notifications';
import { type NotificationsT, useNotificationsT } from '../use-notifications-t';
import { type DayGroup, formatLongDate } from '../utils/day-groups';

/** The notifications under a heading per day: Today, Yesterday, or the long date (spec §2). */
export function DayGroups({
  groups,
  ref,
  render,
}: {
  groups: DayGroup<NotificationItem>[];
  ref: Ref<HTMLDivElement>;
  render: (notification: NotificationItem) => ReactNode;
}) {
  const { t } = useNotificationsT();
  const baseId = useId();
  return (
    <div ref={ref} className="space-y-6">
      {groups.map((group, index) => (
        <section key={group.key} aria-labelledby={`${baseId}-${index}`}>
          <h2
            id={`${baseId}-${index}`}
            className="text-sm font-semibold text-gray-700 dark:text-gray-300"
          >
            {dayLabel(group, t)}
          </h2>
          <ul className="mt-2 space-y-3">
            {group.items.map((notification) => (
              <li key={notification.id}>{render(notification)}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Long dates come from the translation files, not `Intl`: some browsers have no Basque data. */
function dayLabel(group: DayGroup<unknown>, t: NotificationsT): string {
  if (group.when === 'today') return t('groups.today');
  if (group.when === 'yesterday') return t('groups.yesterday');
  if (!group.day) return group.key;
  return formatLongDate(group.day, {
    months: t('groups.months'),
    weekdays: t('groups.weekdays'),
    format: (parts) => t('groups.longDate', parts),
  });
}
