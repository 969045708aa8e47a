import { SignInLinkScreen } from '@/features/auth/components/sign-in-link-screen';

/** The e-mailed sign-in link (issue 24). */
export function Component() {
  return <SignInLinkScreen />;
}
