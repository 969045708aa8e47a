import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { rememberPath } from '@/lib/last-path';
import { unknownPathRouteId } from '../route-ids';

/**
 * Top route: remembers the path and query of every navigation (spec §2 "last visited path"; the
 * sign-in screens excepted, see lib/last-path.ts), the one place that writes `lastPath` besides
 * the guard that sends a visitor to /login.
 */
export function RootRoute() {
  const { pathname, search } = useLocation();
  // A mistyped path is not a screen to come back to after signing in again.
  const isUnknownPath = useMatches().some((match) => match.id === unknownPathRouteId);
  useEffect(() => {
    if (!isUnknownPath) rememberPath(pathname + search);
  }, [pathname, search, isUnknownPath]);
  return <Outlet />;
}
