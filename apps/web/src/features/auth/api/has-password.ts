import { apiRequest } from '@/lib/api-client';

/** Whether the signed-in customer has a password (from their profile, `GET /user/profile/{id}`). */
export async function hasPassword(userId: string): Promise<boolean> {
  const profile = await apiRequest('userProfile', { params: { id: userId } });
  return profile.has_password;
}
