import { LoginLinkScreen } from '@/features/auth/components/login-link-screen';

/** "Send me a link" from the sign-in screen (issue 24). */
export function Component() {
  return <LoginLinkScreen />;
}
