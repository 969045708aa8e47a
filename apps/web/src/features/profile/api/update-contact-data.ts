import type { TContactData } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

/** Issue 23: the customer's telephone, invoice e-mail and postal address; answers the profile. */
export function updateContactData(values: TContactData): Promise<ApiResponse<'updateContactData'>> {
  return apiRequest('updateContactData', { body: values });
}

export function useUpdateContactData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContactData,
    // The profile shows the new data at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['user-profile'] }),
  });
}
