import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

/** Spec §2 "Notifications": all, read or unread. */
export const notificationFilters = ['all', 'unread', 'read'] as const;
export type NotificationFilter = (typeof notificationFilters)[number];

export type NotificationsPage = ApiResponse<'notifications'>;
export type NotificationItem = NotificationsPage['notifications'][number];

/** Every query of this feature starts with this key: reading or deleting refreshes them all. */
export const notificationsKey = ['notifications'] as const;

/** One page of 20 notifications, newest first; pages start at 1. */
export function getNotifications(
  filter: NotificationFilter,
  page: number,
  signal?: AbortSignal,
): Promise<NotificationsPage> {
  return apiRequest('notifications', {
    body: { filter, page: String(page) },
    ...(signal ? { signal } : {}),
  });
}

export const getNotificationsQueryOptions = (filter: NotificationFilter) =>
  infiniteQueryOptions({
    queryKey: [...notificationsKey, 'list', filter],
    queryFn: ({ pageParam, signal }) => getNotifications(filter, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: NotificationsPage, pages: NotificationsPage[]) =>
      last.has_more ? pages.length + 1 : undefined,
    // An inbox: what arrived while elsewhere shows when coming back.
    staleTime: 0,
  });

export function useNotifications(filter: NotificationFilter) {
  return useInfiniteQuery(getNotificationsQueryOptions(filter));
}
