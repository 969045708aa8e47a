import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type FiscalDataRequests = ApiResponse<'fiscalDataRequests'>;
export type FiscalDataRequest = NonNullable<FiscalDataRequests['pending']>;

export const fiscalDataRequestsKey = ['fiscal-data-requests'] as const;

/** Issue 23: the fiscal data request that waits for the organisation, and the last outcome. */
export function getFiscalDataRequests(signal?: AbortSignal): Promise<FiscalDataRequests> {
  return apiRequest('fiscalDataRequests', signal ? { signal } : {});
}

export const getFiscalDataRequestsQueryOptions = () =>
  queryOptions({
    queryKey: fiscalDataRequestsKey,
    queryFn: ({ signal }) => getFiscalDataRequests(signal),
  });

export function useFiscalDataRequests() {
  return useQuery(getFiscalDataRequestsQueryOptions());
}
