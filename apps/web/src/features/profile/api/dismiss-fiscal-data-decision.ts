import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type FiscalDataRequests, fiscalDataRequestsKey } from './get-fiscal-data-requests';

/** Hides the outcome of a decided request from the profile. */
export function dismissFiscalDataDecision(id: string): Promise<FiscalDataRequests> {
  return apiRequest('dismissFiscalDataDecision', { params: { id } });
}

export function useDismissFiscalDataDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissFiscalDataDecision,
    onSuccess: (state) => queryClient.setQueryData(fiscalDataRequestsKey, state),
  });
}
