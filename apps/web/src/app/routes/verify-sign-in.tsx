import { VerifySignInScreen } from '@/features/auth/components/verify-sign-in-screen';

/** The second step of a sign-in: a code from the app or a recovery code (issue 24). */
export function Component() {
  return <VerifySignInScreen />;
}
