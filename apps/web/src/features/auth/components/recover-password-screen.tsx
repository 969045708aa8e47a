import { useTranslation } from '@/lib/use-translation';
import { requestPasswordReset } from '../api/forgot-password';
import { recoveryErrorMessage } from '../error-messages';
import { EmailRequestScreen } from './email-request-screen';

/** Spec §2 "Recovery": an e-mail form, then a success state with the way back to login. */
export function RecoverPasswordScreen() {
  const { t } = useTranslation('auth');
  return (
    <EmailRequestScreen
      texts={{
        title: t('recovery.title'),
        description: t('recovery.description'),
        submit: t('recovery.submit'),
        submitting: t('recovery.submitting'),
        successTitle: t('recovery.successTitle'),
        successDescription: (email) => t('recovery.successDescription', { email }),
        backToLogin: t('recovery.backToLogin'),
      }}
      request={requestPasswordReset}
      errorMessage={recoveryErrorMessage}
    />
  );
}
