import type { TFiscalDataChangeRequest } from '@portal/contract/fiscal-data';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type FiscalDataRequests, fiscalDataRequestsKey } from './get-fiscal-data-requests';

/**
 * Asks the organisation to change the fiscal data. Refused with a 409 while another request
 * waits (`fiscal_request_pending`) or when nothing would change (`fiscal_data_unchanged`).
 */
export function requestFiscalDataChange(
  values: TFiscalDataChangeRequest,
): Promise<FiscalDataRequests> {
  return apiRequest('requestFiscalDataChange', { body: values });
}

export function useRequestFiscalDataChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestFiscalDataChange,
    // The profile shows the waiting request at once.
    onSuccess: (state) => queryClient.setQueryData(fiscalDataRequestsKey, state),
  });
}
