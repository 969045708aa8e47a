import { RecoverPasswordScreen } from '@/features/auth/components/recover-password-screen';

/** Spec §2 "Recovery" (/recover-password). */
export function Component() {
  return <RecoverPasswordScreen />;
}
