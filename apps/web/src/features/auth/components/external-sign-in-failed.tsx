import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import type { AuthMessage } from '../error-messages';
import { AuthCard } from './auth-card';
import { FormAlert } from './form-fields';
import { useAuthTexts } from './use-auth-texts';

/**
 * The external sign-in's return page when it did not sign anyone in: no customer account for the
 * person's e-mail, or a failed sign-in; either way, the way back to login. (On success the page
 * never shows: the app goes straight on.)
 */
export function ExternalSignInFailed({ message }: { message: AuthMessage }) {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  return (
    <AuthCard title={t('callback.failedTitle')}>
      <FormAlert>{texts.error(message)}</FormAlert>
      <Link to={paths.login} className={buttonClasses('primary', 'mt-5 min-h-12 w-full text-base')}>
        {t('callback.backToLogin')}
      </Link>
    </AuthCard>
  );
}
