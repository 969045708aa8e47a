import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';

export type UserProfile = ApiResponse<'userProfile'>;

/** Spec §7 `GET /user/profile/{id}`: the signed-in customer's own data (spec §3 "User info"). */
export async function getUserProfile(id: string, signal?: AbortSignal): Promise<UserProfile> {
  return apiRequest('userProfile', { params: { id }, ...(signal ? { signal } : {}) });
}

export const getUserProfileQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['user-profile', id],
    queryFn: ({ signal }) => getUserProfile(id, signal),
  });

export function useUserProfile(id: string) {
  return useQuery(getUserProfileQueryOptions(id));
}
