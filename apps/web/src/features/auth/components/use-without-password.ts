import { useEffect, useState } from 'react';
import { useAuth } from '@/lib/auth';
import { hasPassword } from '../api/has-password';

/**
 * Whether the signed-in customer has a password, from their profile: `undefined` until it says
 * so, and `true` if it cannot be read (the screen then asks for the password, and the server,
 * which knows, decides).
 */
export function useHasPassword(): boolean | undefined {
  const { user } = useAuth();
  const [has, setHas] = useState<boolean | undefined>(undefined);
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    hasPassword(userId).then(
      (value) => {
        if (live) setHas(value);
      },
      () => {
        if (live) setHas(true);
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);
  return has;
}

/**
 * Whether the signed-in customer has no password (they sign in only by link, Google, Apple or
 * Microsoft), from their profile: false until it says so, so the screens show their usual form
 * meanwhile, and if the profile cannot be read.
 */
export function useWithoutPassword(): boolean {
  return useHasPassword() === false;
}
