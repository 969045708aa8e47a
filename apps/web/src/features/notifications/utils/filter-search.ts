import { type NotificationFilter, notificationFilters } from '../api/get-notifications';

/** The filter lives in the address (`?filter=unread`), like the other lists: back and reload keep it. */
export function filterFromSearch(search: URLSearchParams): NotificationFilter {
  const value = search.get('filter');
  return notificationFilters.find((filter) => filter === value) ?? 'all';
}

export function filterToSearch(filter: NotificationFilter): Record<string, string> {
  return filter === 'all' ? {} : { filter };
}
