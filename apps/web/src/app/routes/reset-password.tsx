import { type LoaderFunctionArgs, redirect, useLoaderData } from 'react-router';
import { paths } from '@/config/paths';
import { ResetPasswordScreen } from '@/features/auth/components/reset-password-screen';

/** Spec §2: /reset-password reads `token` and `email`; without either it goes to /login. */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const token = query.get('token');
  const email = query.get('email');
  if (!token || !email) throw redirect(paths.login);
  return { token, email };
}

export function Component() {
  const { token, email } = useLoaderData<typeof loader>();
  // Keyed by the link: another link opened in the same tab starts a fresh form.
  return <ResetPasswordScreen key={`${email}|${token}`} token={token} email={email} />;
}
