import { ConfirmEmailScreen } from '@/features/auth/components/confirm-email-screen';

/** The link sent to a new sign-in e-mail: confirms the change with a click (issue 23). */
export function Component() {
  return <ConfirmEmailScreen />;
}
