import { Navigate, Outlet } from 'react-router';
import { paths } from '@/config/paths';
import { MainLayout } from '@/components/layouts/main-layout';
import { useIsSignedIn } from '@/lib/auth';

/** Layout of the screens a visitor sees before signing in: no Login entry in the menu. */
export function PublicLayoutRoute() {
  return (
    <MainLayout variant="public">
      <Outlet />
    </MainLayout>
  );
}

export function AppLayoutRoute() {
  return (
    <MainLayout variant="app">
      <Outlet />
    </MainLayout>
  );
}

/**
 * The signed-in screens (spec §6). Their loader checks the token on the way in; this leaves as
 * soon as the token goes while one is shown (signed out in another tab, session ended).
 */
export function SignedInRoute() {
  const isSignedIn = useIsSignedIn();
  return isSignedIn ? <Outlet /> : <Navigate to={paths.login} replace />;
}
