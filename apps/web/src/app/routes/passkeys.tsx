import { PasskeysScreen } from '@/features/auth/components/passkeys-screen';

/** From the profile: the customer's passkeys (issue 24). */
export function Component() {
  return <PasskeysScreen />;
}
