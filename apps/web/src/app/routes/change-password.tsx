import { ChangePasswordScreen } from '@/features/auth/components/change-password-screen';

/** From the profile: change the password (review #13). */
export function Component() {
  return <ChangePasswordScreen />;
}
