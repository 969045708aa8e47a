import { useId } from 'react';
import { cardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import type { NotificationItem } from '../api/get-notifications';
import { useNotificationsT } from '../use-notifications-t';
import { appLinkOf } from '../utils/app-link';
import { wordNotification } from '../utils/notification-wording';
import { NotificationCardActions } from './notification-card-actions';

type NotificationCardProps = {
  notification: NotificationItem;
  /** In the multi-select mode: whether this one is chosen. */
  selection?: { selected: boolean; onToggle: (selected: boolean) => void } | undefined;
  /** A change of this one is on its way to the server. */
  busy: boolean;
  onOpen: () => void;
  onMarkRead: () => void;
  onDelete: () => void;
};

/**
 * One notification (spec §2, §3): title, message, time, read or unread; "Acceder" opens what it is
 * about (its `link`) and marks it read; it can also be marked read or deleted on its own.
 */
export function NotificationCard({
  notification,
  selection,
  busy,
  onOpen,
  onMarkRead,
  onDelete,
}: NotificationCardProps) {
  const { t } = useNotificationsT();
  const titleId = useId();
  const { time, date, isRead } = notification;
  // The portal's notifications are worded here, in the reader's language, from their parameters.
  const { title, message } = wordNotification(notification, t);
  // Every card has the same buttons: their names also say which notification they act on.
  const about = (action: string) => `${action}: ${title}`;

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        cardClasses,
        'flex gap-3 p-4',
        // Unread: a stripe of the tenant's colour beside the dot and the bold title.
        !isRead && 'border-s-4 border-primary-fill ps-3',
        selection?.selected && 'ring-2 ring-primary-ink dark:ring-primary-ink',
      )}
    >
      {selection && (
        <input
          type="checkbox"
          checked={selection.selected}
          onChange={(event) => selection.onToggle(event.target.checked)}
          aria-label={t('item.select', { title })}
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
        />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex items-start gap-2">
          {!isRead && (
            <span
              aria-hidden="true"
              className="mt-2 size-2.5 shrink-0 rounded-full bg-primary-fill"
            />
          )}
          <h3
            id={titleId}
            className={cn(
              'min-w-0 flex-1 text-base break-words text-gray-900 dark:text-gray-50',
              isRead ? 'font-medium' : 'font-bold',
            )}
          >
            {title}
            {!isRead && <span className="sr-only"> ({t('item.unread')})</span>}
          </h3>
          <time
            dateTime={`${date}T${time}`}
            className="shrink-0 pt-0.5 text-sm text-gray-600 tabular-nums dark:text-gray-400"
          >
            {t('item.time', { time })}
          </time>
        </div>
        <p
          className={cn(
            'mt-1 text-sm break-words',
            isRead ? 'text-gray-600 dark:text-gray-400' : 'text-gray-800 dark:text-gray-200',
          )}
        >
          {message}
        </p>
        {/* In the multi-select mode the bar below acts on the chosen ones: no buttons per card. */}
        {!selection && (
          <NotificationCardActions
            link={appLinkOf(notification.link)}
            isRead={isRead}
            busy={busy}
            about={about}
            onOpen={onOpen}
            onMarkRead={onMarkRead}
            onDelete={onDelete}
          />
        )}
      </div>
    </article>
  );
}
