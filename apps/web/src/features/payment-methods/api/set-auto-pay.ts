import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { getAutoPayQueryOptions, type AutoPay } from './get-auto-pay';

/** Turns auto-pay on with this card (off on the others), or off; answers the new state. */
export async function setAutoPay(input: { id: string; enabled: boolean }): Promise<AutoPay> {
  return apiRequest('setAutoPay', { params: { id: input.id }, body: { enabled: input.enabled } });
}

export function useSetAutoPay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutoPay,
    // A load still on its way would bring back the state from before the change: dropped.
    onMutate: () => queryClient.cancelQueries({ queryKey: getAutoPayQueryOptions().queryKey }),
    onSuccess: (state) => queryClient.setQueryData(getAutoPayQueryOptions().queryKey, state),
  });
}
