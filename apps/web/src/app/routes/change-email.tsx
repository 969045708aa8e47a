import { ChangeEmailScreen } from '@/features/auth/components/change-email-screen';

/** From the profile: the sign-in e-mail, changed once the new address confirms it (issue 23). */
export function Component() {
  return <ChangeEmailScreen />;
}
