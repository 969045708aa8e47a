import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { ChevronRightIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';
import type { TNotificationLink } from '@portal/contract/links';
import { useNotificationsT } from '../use-notifications-t';
import { CheckIcon, TrashIcon } from './notification-icons';

/**
 * A quiet button that is a 44 px square icon on a phone and shows its name from `sm` up, so that
 * a long label ("Markatu irakurritako gisa") never pushes the others onto a row of their own
 * (review #22). Its accessible name is always the full one.
 */
const iconOnPhone =
  'inline-flex size-11 shrink-0 items-center justify-center gap-2 rounded-xl text-sm font-semibold text-gray-700 transition hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto sm:px-3 dark:text-gray-200 dark:hover:bg-gray-800';

/**
 * A card's actions: "Acceder" (a secondary button: a list of cards has no primary action of its
 * own, review #22), mark read (only while unread) and delete.
 */
export function NotificationCardActions({
  link,
  isRead,
  busy,
  about,
  onOpen,
  onMarkRead,
  onDelete,
}: {
  link: TNotificationLink | null;
  isRead: boolean;
  busy: boolean;
  /** The full name of an action on this card ("Acceder: Pago recibido"). */
  about: (action: string) => string;
  onOpen: () => void;
  onMarkRead: () => void;
  onDelete: () => void;
}) {
  const { t } = useNotificationsT();
  const open = (
    <>
      {t('item.open')}
      <ChevronRightIcon className="-me-1 size-4" />
    </>
  );
  return (
    <div className="mt-3 flex items-center gap-2">
      {link?.kind === 'app' && (
        <Link
          to={link.path}
          onClick={onOpen}
          aria-label={about(t('item.open'))}
          className={buttonClasses('secondary')}
        >
          {open}
        </Link>
      )}
      {link?.kind === 'external' && (
        <a
          href={link.href}
          // Another site: it learns nothing of this page and cannot script it.
          rel="noopener noreferrer"
          onClick={onOpen}
          aria-label={about(t('item.open'))}
          className={buttonClasses('secondary')}
        >
          {open}
        </a>
      )}
      <div className="ms-auto flex items-center gap-1">
        {!isRead && (
          <button
            type="button"
            className={iconOnPhone}
            disabled={busy}
            onClick={onMarkRead}
            aria-label={about(t('item.markRead'))}
            title={t('item.markRead')}
          >
            <CheckIcon className="size-5 shrink-0 sm:size-4" />
            <span className="hidden sm:inline">{t('item.markRead')}</span>
          </button>
        )}
        <button
          type="button"
          className={cn(iconOnPhone, 'hover:text-red-700 dark:hover:text-red-300')}
          disabled={busy}
          onClick={onDelete}
          aria-label={about(t('item.delete'))}
          title={t('item.delete')}
        >
          <TrashIcon className="size-5 shrink-0 sm:size-4" />
          <span className="hidden sm:inline">{t('item.delete')}</span>
        </button>
      </div>
    </div>
  );
}
