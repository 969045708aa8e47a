import {
  type ReactNode,
  type Ref,
  type RefObject,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useSearchParams } from 'react-router';
import { setUnreadNotifications } from '@/components/layouts/header';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { AlertIcon, BellIcon } from '@/components/ui/icons';
import { ListFooter } from '@/components/ui/list-footer';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { useDeleteNotifications } from '../api/delete-notifications';
import {
  type NotificationFilter,
  notificationFilters,
  type NotificationItem,
  useNotifications,
} from '../api/get-notifications';
import { useReadNotifications } from '../api/read-notifications';
import { type NotificationsT, useNotificationsT } from '../use-notifications-t';
import { type DayGroup, formatLongDate, groupByDay } from '../utils/day-groups';
import { filterFromSearch, filterToSearch } from '../utils/filter-search';
import { NotificationCard } from './notification-card';
import { CheckIcon, TrashIcon } from './notification-icons';

const noneSelected: ReadonlySet<string> = new Set();

/** What the last change did, or why it failed; announced, and shown above the list. */
type Notice = { kind: 'done' | 'error'; text: string };

const dangerButton =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:outline-red-400';

/**
 * Spec §2 "Notifications" (/my-notifications): newest first, filters all/unread/read, grouped by
 * Today, Yesterday or the long date, "Ver más" for the next page, multi-select to mark read or
 * delete several, "Acceder" to open what one is about. Every change refreshes the header's bell.
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
  const read = useReadNotifications();
  const remove = useDeleteNotifications();
  const [isSelecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState(noneSelected);
  const [toDelete, setToDelete] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const groupsRef = useRef<HTMLDivElement>(null);
  const beforeLoadMore = useFocusFirstNew(
    groupsRef,
    notifications.length,
    query.isFetchingNextPage,
  );

  // The list answers the unread count as well: the bell shows the number this screen shows.
  useEffect(() => {
    if (unread !== undefined) setUnreadNotifications(unread);
  }, [unread, query.dataUpdatedAt]);
  useEffect(() => {
    if (query.error) console.error('Could not load the notifications', query.error);
  }, [query.error]);

  // Only what is on the list counts as chosen (a deleted or filtered-out one no longer does).
  const chosen = notifications.filter((n) => selected.has(n.id));
  const busyIds = new Set([
    ...(read.isPending ? (read.variables ?? []) : []),
    ...(remove.isPending ? (remove.variables ?? []) : []),
  ]);

  const stopSelecting = () => {
    setSelecting(false);
    setSelected(noneSelected);
  };
  const changeFilter = (next: NotificationFilter) => {
    setSearch(filterToSearch(next), { replace: true });
    setSelected(noneSelected);
  };

  // After a change the pressed button may go with its card (now, or when the list shows the new
  // answer): focus then goes back to the top of the screen instead of the page's body.
  const refocus = useRef(false);
  const keepFocus = () => {
    if (!refocus.current) return;
    if (!document.activeElement || document.activeElement === document.body) {
      refocus.current = false;
      titleRef.current?.focus();
    }
  };
  useEffect(() => {
    keepFocus();
    // One look once the new answer shows; later changes of the list are not ours to follow.
    refocus.current = false;
  }, [notifications]);
  const afterChange = () => {
    refocus.current = true;
    stopSelecting();
    keepFocus();
  };
  const markRead = (ids: string[]) => {
    setNotice(null);
    read.mutate(ids, {
      onSuccess: (count) => {
        setNotice({ kind: 'done', text: t('done.read', { count }) });
        afterChange();
      },
      onError: () => setNotice({ kind: 'error', text: t('errors.read') }),
    });
  };
  const deleteNow = (ids: string[]) => {
    setNotice(null);
    remove.mutate(ids, {
      onSuccess: (count) => {
        setNotice({ kind: 'done', text: t('done.deleted', { count }) });
        afterChange();
      },
      onError: () => setNotice({ kind: 'error', text: t('errors.delete') }),
    });
  };
  // "Acceder" leaves at once; the hook's own callbacks refresh the lists and the bell afterwards.
  const open = (notification: NotificationItem) => {
    if (!notification.isRead) read.mutate([notification.id]);
  };

  return (
    <div className={pageClasses}>
      <div className="mx-auto max-w-3xl">
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

        <FilterButtons value={filter} onChange={changeFilter} t={t} />

        <div role="status" aria-live="polite" className="empty:hidden">
          {notice?.kind === 'done' && (
            <p className="mt-4 flex items-center gap-2 rounded-xl bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200 dark:bg-green-950/40 dark:text-green-100 dark:ring-green-900">
              <CheckIcon className="size-5 shrink-0" />
              {notice.text}
            </p>
          )}
        </div>
        {notice?.kind === 'error' && (
          <p
            role="alert"
            className="mt-4 flex items-center gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 dark:bg-red-950/50 dark:text-red-100 dark:ring-red-900"
          >
            <AlertIcon className="size-5 shrink-0" />
            {notice.text}
          </p>
        )}

        <section aria-label={t('list.label')} aria-busy={query.isPending} className="mt-6">
          {query.isPending ? (
            <ListSkeleton label={t('list.loading')} />
          ) : query.isError && !query.data ? (
            <div
              role="alert"
              className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
            >
              <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
              <p className="font-medium text-gray-900 dark:text-gray-100">{t('list.loadError')}</p>
              <Button variant="secondary" onClick={() => void query.refetch()}>
                {t('list.retry')}
              </Button>
            </div>
          ) : notifications.length === 0 ? (
            <div className={cn(cardClasses, 'flex flex-col items-center gap-2 p-8 text-center')}>
              <BellIcon className="size-8 text-gray-500 dark:text-gray-400" />
              <p className="font-medium text-gray-900 dark:text-gray-100">{t('list.empty')}</p>
              <p className="text-sm text-gray-600 dark:text-gray-400">
                {t(
                  filter === 'unread'
                    ? 'list.emptyUnread'
                    : filter === 'read'
                      ? 'list.emptyRead'
                      : 'list.emptyAll',
                )}
              </p>
            </div>
          ) : (
            <>
              <DayGroups
                ref={groupsRef}
                groups={groupByDay(notifications)}
                render={(notification) => (
                  <NotificationCard
                    notification={notification}
                    busy={busyIds.has(notification.id)}
                    selection={
                      isSelecting
                        ? {
                            selected: selected.has(notification.id),
                            onToggle: (on) => {
                              const next = new Set(selected);
                              if (on) next.add(notification.id);
                              else next.delete(notification.id);
                              setSelected(next);
                            },
                          }
                        : undefined
                    }
                    onOpen={() => open(notification)}
                    onMarkRead={() => markRead([notification.id])}
                    onDelete={() => deleteNow([notification.id])}
                  />
                )}
              />
              <ListFooter
                hasMore={query.hasNextPage}
                isFetchingMore={query.isFetchingNextPage}
                isError={query.isFetchNextPageError}
                onLoadMore={() => {
                  beforeLoadMore();
                  void query.fetchNextPage();
                }}
                texts={{
                  viewMore: t('list.viewMore'),
                  loading: t('list.loading'),
                  noMore: t('list.noMore'),
                  loadMoreError: t('list.loadMoreError'),
                  retry: t('list.retry'),
                }}
              />
            </>
          )}
        </section>

        {isSelecting && (
          <SelectionBar
            t={t}
            count={chosen.length}
            total={notifications.length}
            unreadChosen={chosen.filter((n) => !n.isRead).length}
            busy={read.isPending || remove.isPending}
            onSelectAll={(all) =>
              setSelected(all ? new Set(notifications.map((n) => n.id)) : noneSelected)
            }
            onMarkRead={() => markRead(chosen.filter((n) => !n.isRead).map((n) => n.id))}
            onDelete={() => setToDelete(chosen.map((n) => n.id))}
          />
        )}

        <Dialog
          open={toDelete !== null}
          onClose={() => setToDelete(null)}
          title={t('confirmDelete.title', { count: toDelete?.length ?? 0 })}
        >
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {t('confirmDelete.description')}
          </p>
          <div className="mt-5 grid gap-2">
            <button
              type="button"
              className={dangerButton}
              onClick={() => {
                if (toDelete) deleteNow(toDelete);
                setToDelete(null);
              }}
            >
              <TrashIcon className="size-4" />
              {t('confirmDelete.confirm')}
            </button>
            <Button variant="secondary" data-autofocus onClick={() => setToDelete(null)}>
              {t('confirmDelete.cancel')}
            </Button>
          </div>
        </Dialog>
      </div>
    </div>
  );
}

function FilterButtons({
  value,
  onChange,
  t,
}: {
  value: NotificationFilter;
  onChange: (filter: NotificationFilter) => void;
  t: NotificationsT;
}) {
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
            'min-h-11 flex-1 rounded-lg px-4 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary-ink sm:flex-none',
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

/**
 * "Ver más" for keyboard and screen-reader users (as `useFocusLoadedItems` does for flat lists):
 * after a page loaded on request, focus moves to the first control of the first new notification.
 * Returns the function to call just before asking for the next page.
 */
function useFocusFirstNew(
  containerRef: RefObject<HTMLElement | null>,
  count: number,
  isLoading: boolean,
): () => void {
  const firstNew = useRef<number | null>(null);
  useEffect(() => {
    const index = firstNew.current;
    if (index === null || isLoading) return;
    firstNew.current = null;
    const article = containerRef.current?.querySelectorAll('article')[index];
    article?.querySelector<HTMLElement>('input, a, button')?.focus();
  }, [containerRef, count, isLoading]);
  return () => {
    firstNew.current = count;
  };
}

/** The notifications under a heading per day: Today, Yesterday, or the long date. */
function DayGroups({
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

/**
 * The multi-select bar, above the bottom bar on a phone: select all, how many are chosen, and
 * what to do with them. Deleting several asks first (it cannot be undone); marking read loses
 * nothing, so it does not.
 */
function SelectionBar({
  t,
  count,
  total,
  unreadChosen,
  busy,
  onSelectAll,
  onMarkRead,
  onDelete,
}: {
  t: NotificationsT;
  count: number;
  total: number;
  unreadChosen: number;
  busy: boolean;
  onSelectAll: (all: boolean) => void;
  onMarkRead: () => void;
  onDelete: () => void;
}) {
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
          'flex flex-wrap items-center gap-x-4 gap-y-3 p-3 shadow-lg ring-2 ring-primary-ink',
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
            className={cn(dangerButton, 'shrink-0')}
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

/** Spec §2: four placeholders while the first page loads. */
function ListSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton className="h-4 w-16" />
      <ul className="mt-2 space-y-3">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} className={cn(cardClasses, 'space-y-2 p-4')}>
            <span className="flex justify-between gap-3">
              <Skeleton className="h-5 w-48" />
              <Skeleton className="h-4 w-12" />
            </span>
            <Skeleton className="h-4 w-full max-w-md" />
            <span className="flex gap-2 pt-2">
              <Skeleton className="h-10 w-24 rounded-xl" />
              <Skeleton className="h-10 w-24 rounded-xl" />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
