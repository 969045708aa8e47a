import { apiRequest } from '@/lib/api-client';

export type ResetPasswordInput = {
  token: string;
  email: string;
  password: string;
  confirmation: string;
};

/** `POST /reset-password` (spec §7) with the token and e-mail of the link. */
export async function resetPassword({
  token,
  email,
  password,
  confirmation,
}: ResetPasswordInput): Promise<void> {
  await apiRequest('resetPassword', {
    body: { token, email, password, password_confirmation: confirmation },
  });
}
