import { useEffect, useState } from 'react';
import { useAuth } from '@/lib/auth';
import { hasPassword } from '../api/has-password';

/**
 * Whether the signed-in customer has no password (they only sign in with Google, Apple or
 * Microsoft), from their profile: false until it says so, so the screens show their usual form
 * meanwhile, and if the profile cannot be read.
 */
export function useWithoutPassword(): boolean {
  const { user } = useAuth();
  const [without, setWithout] = useState(false);
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    hasPassword(userId).then(
      (has) => {
        if (live && !has) setWithout(true);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [userId]);
  return without;
}
