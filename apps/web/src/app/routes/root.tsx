import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { rememberPath } from '@/lib/last-path';

/**
 * Top route: remembers the path and query of every navigation (spec §2 "last visited path"; the
 * sign-in screens excepted, see lib/last-path.ts), the one place that writes `lastPath` besides
 * the guard that sends a visitor to /login.
 */
export function RootRoute() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    rememberPath(pathname + search);
  }, [pathname, search]);
  return <Outlet />;
}
