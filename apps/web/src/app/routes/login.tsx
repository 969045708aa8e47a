import { LoginScreen } from '@/features/auth/components/login-screen';

/** Spec §2 "Login". */
export function Component() {
  return <LoginScreen />;
}
