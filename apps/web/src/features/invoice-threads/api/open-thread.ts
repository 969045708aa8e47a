import type { TOpenThreadRequest } from '@portal/contract/invoice-threads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import { threadsKey } from './get-threads';

/** Asks about an invoice: opens a conversation (or adds to the open one) with the first message. */
export function openThread(body: TOpenThreadRequest): Promise<ApiResponse<'openInvoiceThread'>> {
  return apiRequest('openInvoiceThread', { body });
}

export function useOpenThread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openThread,
    onSuccess: (answer) => {
      queryClient.setQueryData([...threadsKey, 'detail', answer.thread.id], answer);
      return queryClient.invalidateQueries({ queryKey: [...threadsKey, 'list'] });
    },
  });
}
