import { apiRequest } from '@/lib/api-client';

export type ChangePasswordInput = { current: string; password: string; confirmation: string };

/** `POST /change-password`: every other session of the customer ends; this one stays. */
export async function changePassword({
  current,
  password,
  confirmation,
}: ChangePasswordInput): Promise<void> {
  await apiRequest('changePassword', {
    body: { current_password: current, password, password_confirmation: confirmation },
  });
}
