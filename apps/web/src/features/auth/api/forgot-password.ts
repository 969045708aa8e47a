import { apiRequest } from '@/lib/api-client';

/** `POST /forgot-password` (spec §7): the same answer whether or not the address is a customer. */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiRequest('forgotPassword', { body: { email: email.trim() } });
}
