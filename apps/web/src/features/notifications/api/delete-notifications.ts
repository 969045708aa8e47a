import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshUnreadNotifications } from '@/components/layouts/header';
import { apiRequest } from '@/lib/api-client';
import { inBatches } from '../utils/in-batches';
import { notificationsKey } from './get-notifications';

/** Deletes notifications; answers how many were deleted. */
export function deleteNotifications(ids: readonly string[]): Promise<number> {
  return inBatches(ids, (batch) => apiRequest('deleteNotifications', { body: { ids: batch } }));
}

/** Afterwards the lists load again and the header's bell asks for its count. */
export function useDeleteNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotifications,
    onSettled: async () => {
      void refreshUnreadNotifications();
      await queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}
