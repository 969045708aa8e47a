import { type LoaderFunctionArgs, redirect, useLoaderData } from 'react-router';
import { paths } from '@/config/paths';
import { finishExternalSignIn, isSignInProvider } from '@/features/auth/api/external-sign-in';
import { ExternalSignInFailed } from '@/features/auth/components/external-sign-in-failed';
import { pathAfterSignIn } from '@/lib/last-path';
import { restoreSession } from '@/lib/session';

/**
 * /auth/{provider}/callback: the provider sends the browser back here (Apple by a POST the server
 * turns into this GET). The code goes to the API in the loader, once (behind the app's spinner),
 * and a signed-in customer moves on to the last visited path, else /home (spec §2).
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const { provider } = params;
  if (!isSignInProvider(provider)) throw redirect(paths.login);
  // A session being restored at the same time would race this one for the session cookies.
  await restoreSession();
  const result = await finishExternalSignIn(provider, new URL(request.url).searchParams);
  if (result.ok) throw redirect(pathAfterSignIn());
  return { message: result.message };
}

// The code is single-use: never send it twice.
export const shouldRevalidate = () => false;

export function Component() {
  const { message } = useLoaderData<typeof loader>();
  return <ExternalSignInFailed message={message} />;
}
