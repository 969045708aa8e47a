import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { threadsKey } from './get-threads';

/** Writes in an open conversation. */
export function replyThread({
  id,
  message,
}: {
  id: string;
  message: string;
}): Promise<ApiResponse<'replyInvoiceThread'>> {
  return apiRequest('replyInvoiceThread', { params: { id }, body: { message } });
}

export function useReplyThread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyThread,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsKey }),
  });
}
