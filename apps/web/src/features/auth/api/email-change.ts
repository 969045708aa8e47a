import { apiRequest } from '@/lib/api-client';

/** Issue 23: a confirmation link to the new address; answers where it went. */
export async function requestEmailChange(email: string, currentPassword: string): Promise<string> {
  const answer = await apiRequest('requestEmailChange', {
    body: { email: email.trim(), current_password: currentPassword },
  });
  return answer.email;
}

/** The new address's link: answers the sign-in e-mail it set. */
export async function confirmEmailChange(token: string): Promise<string> {
  return (await apiRequest('confirmEmailChange', { body: { token } })).email;
}
