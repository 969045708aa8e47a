import { DevicesScreen } from '@/features/auth/components/devices-screen';

/** From the profile: where the customer is signed in (issue 24). */
export function Component() {
  return <DevicesScreen />;
}
