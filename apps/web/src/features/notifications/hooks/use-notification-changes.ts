import { type RefObject, useEffect, useRef, useState } from 'react';
import { useDeleteNotifications } from '../api/delete-notifications';
import type { NotificationItem } from '../api/get-notifications';
import { useReadNotifications } from '../api/read-notifications';
import type { Notice } from '../components/change-notice';
import { useNotificationsT } from '../use-notifications-t';

/**
 * Marking read and deleting, with what the screen says afterwards (`notice`) and where focus goes:
 * the pressed button may go with its card (now, or when the list shows the new answer), and focus
 * then returns to the screen's title instead of the page's body.
 */
export function useNotificationChanges({
  notifications,
  titleRef,
  onDone,
}: {
  notifications: readonly NotificationItem[];
  titleRef: RefObject<HTMLElement | null>;
  /** After a change went through (the multi-select mode ends). */
  onDone: () => void;
}) {
  const { t } = useNotificationsT();
  const read = useReadNotifications();
  const remove = useDeleteNotifications();
  const [notice, setNotice] = useState<Notice | null>(null);

  const refocus = useRef(false);
  const keepFocus = () => {
    if (!refocus.current) return;
    if (!document.activeElement || document.activeElement === document.body) {
      refocus.current = false;
      titleRef.current?.focus();
    }
  };
  useEffect(() => {
    // Once the new answer shows: one look, then later changes of the list are not ours to follow.
    if (refocus.current && (!document.activeElement || document.activeElement === document.body))
      titleRef.current?.focus();
    refocus.current = false;
  }, [notifications, titleRef]);
  const afterChange = () => {
    refocus.current = true;
    onDone();
    keepFocus();
  };

  return {
    notice,
    /** Ids with a change on its way to the server. */
    busyIds: new Set([
      ...(read.isPending ? (read.variables ?? []) : []),
      ...(remove.isPending ? (remove.variables ?? []) : []),
    ]),
    isBusy: read.isPending || remove.isPending,
    markRead(ids: string[]) {
      setNotice(null);
      read.mutate(ids, {
        onSuccess: (count) => {
          setNotice({ kind: 'done', text: t('done.read', { count }) });
          afterChange();
        },
        onError: () => setNotice({ kind: 'error', text: t('errors.read') }),
      });
    },
    remove(ids: string[]) {
      setNotice(null);
      remove.mutate(ids, {
        onSuccess: (count) => {
          setNotice({ kind: 'done', text: t('done.deleted', { count }) });
          afterChange();
        },
        onError: () => setNotice({ kind: 'error', text: t('errors.delete') }),
      });
    },
    /** "Acceder" leaves at once; the hook's own callbacks refresh the lists and the bell later. */
    open(notification: NotificationItem) {
      if (!notification.isRead) read.mutate([notification.id]);
    },
  };
}
