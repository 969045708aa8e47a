import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshUnreadNotifications } from '@/components/layouts/header';
import { apiRequest } from '@/lib/api-client';
import { inBatches } from '../utils/in-batches';
import { notificationsKey } from './get-notifications';

/** Marks notifications read; answers how many of them were still unread. */
export function readNotifications(ids: readonly string[]): Promise<number> {
  return inBatches(ids, (batch) => apiRequest('readNotifications', { body: { ids: batch } }));
}

/**
 * Afterwards the lists load again and the header's bell asks for its count; both sit in the hook's
 * options, so they run even when "Acceder" has already left the screen.
 */
export function useReadNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: readNotifications,
    onSettled: async () => {
      void refreshUnreadNotifications();
      await queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}
