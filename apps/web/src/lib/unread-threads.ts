import { apiRequest } from './api-client';
import { createUnreadCount } from './unread-count';

/**
 * How many of the customer's conversations about invoices are unread: the "Mis consultas" badge
 * of the side menu (and the dot on the menu button). The conversations' screens give it the count
 * their list carries, and ask again after opening a conversation (which reads it).
 */
export const unreadThreads = createUnreadCount(
  async (signal) => (await apiRequest('unreadInvoiceThreads', signal ? { signal } : {})).unread,
);
