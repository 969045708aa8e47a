import { useTranslation } from '@/lib/use-translation';
import { peekLastPath } from '@/lib/last-path';
import { requestSignInLink } from '../api/sign-in-link';
import { signInLinkRequestErrorMessage } from '../error-messages';
import { EmailRequestScreen } from './email-request-screen';

/**
 * "Send me a link" (issue 24): the e-mail, then "check your mailbox". The link opens the screen the
 * customer was sent to sign in from (an invoice from its e-mail, say), on whatever device opens it.
 */
export function LoginLinkScreen() {
  const { t } = useTranslation('sessions');
  return (
    <EmailRequestScreen
      texts={{
        title: t('linkRequest.title'),
        description: t('linkRequest.description'),
        submit: t('linkRequest.submit'),
        submitting: t('linkRequest.submitting'),
        successTitle: t('linkRequest.successTitle'),
        successDescription: (email) => t('linkRequest.successDescription', { email }),
        backToLogin: t('linkRequest.backToLogin'),
      }}
      request={(email) => requestSignInLink(email, peekLastPath())}
      errorMessage={signInLinkRequestErrorMessage}
    />
  );
}
