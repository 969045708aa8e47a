import { TwoFactorScreen } from '@/features/auth/components/two-factor-screen';

/** From the profile: two-step verification (issue 24). */
export function Component() {
  return <TwoFactorScreen />;
}
