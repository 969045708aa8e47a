import { EndSessionLinkScreen } from '@/features/auth/components/end-session-link-screen';

/** The "was this you?" e-mail's link: ends that session (issue 24). */
export function Component() {
  return <EndSessionLinkScreen />;
}
