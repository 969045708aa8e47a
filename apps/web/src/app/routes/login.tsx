import { LoginScreen } from '@/features/auth/components/login-screen';
import { loginRootId } from '@/lib/prerender';

/**
 * Spec §2 "Login". Inside the element the /login entry hydrates on the prerendered page
 * (src/login/main.tsx), here too, so that the page is laid out the same either way.
 */
export function Component() {
  return (
    <div id={loginRootId} className="contents">
      <LoginScreen />
    </div>
  );
}
