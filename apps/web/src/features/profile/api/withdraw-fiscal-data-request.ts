import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type FiscalDataRequests, fiscalDataRequestsKey } from './get-fiscal-data-requests';

/** Takes back the waiting request; a 409 `fiscal_request_closed` once it has been decided. */
export function withdrawFiscalDataRequest(id: string): Promise<FiscalDataRequests> {
  return apiRequest('withdrawFiscalDataRequest', { params: { id } });
}

export function useWithdrawFiscalDataRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawFiscalDataRequest,
    onSuccess: (state) => queryClient.setQueryData(fiscalDataRequestsKey, state),
    // Decided meanwhile: the profile shows the decision (and the data, if approved).
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: fiscalDataRequestsKey });
      void queryClient.invalidateQueries({ queryKey: ['user-profile'] });
    },
  });
}
