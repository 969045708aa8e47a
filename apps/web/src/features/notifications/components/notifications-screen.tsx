import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { setUnreadNotifications } from '@/components/layouts/header';
import { Button } from '@/components/ui/button';
import { BellIcon } from '@/components/ui/icons';
import { ListState } from '@/components/ui/list-state';
import { pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { pageWidthClasses } from '@/components/ui/page';
import { useFocusLoadedItems } from '@/components/ui/use-focus-loaded-items';
import { cn } from '@/utils/cn';
import { type NotificationFilter, useNotifications } from '../api/get-notifications';
import { useNotificationChanges } from '../hooks/use-notification-changes';
import { useNotificationsT } from '../use-notifications-t';
import { groupByDay } from '../utils/day-groups';
import { filterFromSearch, filterToSearch } from '../utils/filter-search';
import { ChangeNotice } from './change-notice';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { DayGroups } from './day-groups';
import { FilterTabs } from './filter-tabs';
import { ListSkeleton } from './list-skeleton';
import { NotificationCard } from './notification-card';
import { SelectionBar } from './selection-bar';

const noneSelected: ReadonlySet<string> = new Set();

/**
 * Spec §2 "Notifications" (/my-notifications): newest first, filters all/unread/read, grouped by
 * Today, Yesterday or the long date, "Ver más" for the next page, multi-select to mark read or
 * delete several, "Acceder" to open what one is about. Every change refreshes the header's bell.
 * This file holds the screen's state; each part it shows is its own component beside it.
 */
export function NotificationsScreen() {
  const { t } = useNotificationsT();
  const [search, setSearch] = useSearchParams();
  const filter = filterFromSearch(search);
  const query = useNotifications(filter);
  const notifications = useMemo(
    () => query.data?.pages.flatMap((page) => page.notifications) ?? [],
    [query.data],
  );
  const unread = query.data?.pages.at(-1)?.unread;
  const [isSelecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState(noneSelected);
  const [toDelete, setToDelete] = useState<string[] | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const groupsRef = useRef<HTMLDivElement>(null);
  // The cards sit in day groups: the first new one is found among the articles.
  const beforeLoadMore = useFocusLoadedItems(
    groupsRef,
    notifications.length,
    query.isFetchingNextPage,
    'article',
  );

  const stopSelecting = () => {
    setSelecting(false);
    setSelected(noneSelected);
  };
  const changes = useNotificationChanges({ notifications, titleRef, onDone: stopSelecting });

  // The list answers the unread count as well: the bell shows the number this screen shows.
  useEffect(() => {
    if (unread !== undefined) setUnreadNotifications(unread);
  }, [unread, query.dataUpdatedAt]);
  useEffect(() => {
    if (query.error) console.error('Could not load the notifications', query.error);
  }, [query.error]);

  // Only what is on the list counts as chosen (a deleted or filtered-out one no longer does).
  const chosen = notifications.filter((n) => selected.has(n.id));
  const changeFilter = (next: NotificationFilter) => {
    setSearch(filterToSearch(next), { replace: true });
    setSelected(noneSelected);
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  return (
    <div className={pageClasses}>
      <div className={pageWidthClasses('form')}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 ref={titleRef} tabIndex={-1} className={cn(pageTitleClasses, 'focus:outline-none')}>
              {t('title')}
            </h1>
            {unread !== undefined && (
              <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
                {unread > 0 ? t('summary.unread', { count: unread }) : t('summary.none')}
              </p>
            )}
          </div>
          {(notifications.length > 0 || isSelecting) && (
            <Button
              variant="secondary"
              onClick={isSelecting ? stopSelecting : () => setSelecting(true)}
            >
              {isSelecting ? t('selection.cancel') : t('selection.start')}
            </Button>
          )}
        </div>

        <FilterTabs value={filter} onChange={changeFilter} />
        <ChangeNotice notice={changes.notice} />

        <section aria-label={t('list.label')} aria-busy={query.isPending} className="mt-6">
          <ListState
            query={query}
            isEmpty={notifications.length === 0}
            skeleton={<ListSkeleton />}
            empty={{
              icon: BellIcon,
              title: t('list.empty'),
              hint: t(
                filter === 'unread'
                  ? 'list.emptyUnread'
                  : filter === 'read'
                    ? 'list.emptyRead'
                    : 'list.emptyAll',
              ),
            }}
            texts={{
              loading: t('list.loading'),
              loadError: t('list.loadError'),
              retry: t('list.retry'),
            }}
            more={{
              query,
              beforeLoadMore,
              texts: {
                viewMore: t('list.viewMore'),
                noMore: t('list.noMore'),
                loadMoreError: t('list.loadMoreError'),
              },
            }}
          >
            <DayGroups
              ref={groupsRef}
              groups={groupByDay(notifications)}
              render={(notification) => (
                <NotificationCard
                  notification={notification}
                  busy={changes.busyIds.has(notification.id)}
                  selection={
                    isSelecting
                      ? {
                          selected: selected.has(notification.id),
                          onToggle: (on) => toggle(notification.id, on),
                        }
                      : undefined
                  }
                  onOpen={() => changes.open(notification)}
                  onMarkRead={() => changes.markRead([notification.id])}
                  onDelete={() => changes.remove([notification.id])}
                />
              )}
            />
          </ListState>
        </section>

        {isSelecting && (
          <SelectionBar
            count={chosen.length}
            total={notifications.length}
            unreadChosen={chosen.filter((n) => !n.isRead).length}
            busy={changes.isBusy}
            onSelectAll={(all) =>
              setSelected(all ? new Set(notifications.map((n) => n.id)) : noneSelected)
            }
            onMarkRead={() => changes.markRead(chosen.filter((n) => !n.isRead).map((n) => n.id))}
            onDelete={() => setToDelete(chosen.map((n) => n.id))}
          />
        )}

        <ConfirmDeleteDialog
          ids={toDelete}
          onConfirm={changes.remove}
          onClose={() => setToDelete(null)}
        />
      </div>
    </div>
  );
}
