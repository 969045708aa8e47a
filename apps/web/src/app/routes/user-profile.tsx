import { ProfileScreen } from '@/features/profile/components/profile-screen';

/** Spec §2 "Profile" (/user-profile), also the target of My user. */
export function Component() {
  return <ProfileScreen />;
}
