import { useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { isRestorablePath, pathAfterSignIn } from '@/lib/last-path';
import { saveVerifyState } from '../api/second-factor';
import { redeemSignInLink } from '../api/sign-in-link';
import { AuthCard } from './auth-card';
import { FormAlert } from './form-fields';

type Failure = 'invalid' | 'expired' | 'off' | 'error' | 'rateLimited';

const failureOf = (error: unknown): Failure => {
  if (!(error instanceof ApiError)) return 'error';
  if (error.status === 422) return 'invalid';
  if (error.code === 'sign_in_link_expired') return 'expired';
  if (error.code === 'sign_in_method_off') return 'off';
  if (error.status === 429) return 'rateLimited';
  return 'error';
};

/**
 * The e-mailed sign-in link (issue 24). Opening it signs nobody in: a mail scanner that follows
 * links must not spend it. The button does, then the customer lands where the link was asked from
 * (an invoice, say), else where a sign-in goes. A spent, late or foreign link says so and offers
 * another; the portal that no longer offers links sends to the password.
 */
export function SignInLinkScreen() {
  const { t } = useTranslation('sessions');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(token ? null : 'invalid');

  const onSignIn = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { next, challenge } = await redeemSignInLink(token);
      if (challenge) {
        saveVerifyState(challenge, next);
        await navigate(paths.verifySignIn, { replace: true });
        return;
      }
      await navigate(isRestorablePath(next) ? next : pathAfterSignIn(), { replace: true });
    } catch (error) {
      setFailure(failureOf(error));
      setBusy(false);
    }
  };

  const spent = failure === 'invalid' || failure === 'expired';
  return (
    <AuthCard title={t('linkSignIn.title')} description={spent ? undefined : t('linkSignIn.intro')}>
      {failure && (
        <div className="mb-4">
          <FormAlert>
            <p>{t(`linkSignIn.${failure}`)}</p>
          </FormAlert>
        </div>
      )}
      {spent ? (
        <Link
          to={paths.loginLink}
          className={buttonClasses('primary', 'min-h-12 w-full text-base')}
        >
          {t('linkSignIn.askAgain')}
        </Link>
      ) : failure === 'off' ? (
        <Link to={paths.login} className={buttonClasses('primary', 'min-h-12 w-full text-base')}>
          {t('linkSignIn.toLogin')}
        </Link>
      ) : (
        <Button
          className="min-h-12 w-full text-base"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void onSignIn()}
        >
          {busy ? t('linkSignIn.busy') : t('linkSignIn.button')}
        </Button>
      )}
    </AuthCard>
  );
}
