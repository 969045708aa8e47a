import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthCard } from './auth-card';
import { SuccessMark } from './auth-icons';
import { FormAlert } from './form-fields';
import { ApiError } from '@/lib/api-client';
import { endSessionByLink } from '../api/sessions';

type State = 'ready' | 'busy' | 'done' | 'alreadyEnded' | 'invalid' | 'error' | 'rateLimited';

/**
 * The "was this you?" e-mail's link (issue 24). Opening it ends nothing: a mail scanner that
 * follows links must not end the customer's own new session. The button does, without signing
 * anyone in; then the screen says what happened and leads to choosing a new password.
 */
export function EndSessionLinkScreen() {
  const { t } = useTranslation('sessions');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? 'ready' : 'invalid');
  const titleRef = useRef<HTMLHeadingElement>(null);
  const finished = state === 'done' || state === 'alreadyEnded' || state === 'invalid';

  useEffect(() => {
    if (finished) titleRef.current?.focus();
  }, [finished]);

  const onEnd = async () => {
    setState('busy');
    try {
      setState((await endSessionByLink(token)) > 0 ? 'done' : 'alreadyEnded');
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setState('invalid');
      else if (error instanceof ApiError && error.status === 429) setState('rateLimited');
      else setState('error');
    }
  };

  if (state === 'done' || state === 'alreadyEnded') {
    return (
      <AuthCard title={t('link.done')} titleRef={titleRef} icon={<SuccessMark />}>
        <p className="mt-2 text-center text-gray-700 dark:text-gray-300">
          {state === 'done' ? t('link.doneHint') : t('link.alreadyEnded')}
        </p>
        <Link
          to={paths.recoverPassword}
          className={buttonClasses('primary', 'mt-6 min-h-12 w-full text-base')}
        >
          {t('link.newPassword')}
        </Link>
      </AuthCard>
    );
  }

  if (state === 'invalid') {
    return (
      <AuthCard title={t('link.title')} titleRef={titleRef}>
        <div className="mt-4">
          <FormAlert>
            <p>{t('link.invalid')}</p>
          </FormAlert>
        </div>
        <Link
          to={paths.login}
          className={buttonClasses('primary', 'mt-6 min-h-12 w-full text-base')}
        >
          {t('link.toLogin')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('link.title')} titleRef={titleRef} description={t('link.intro')}>
      {(state === 'error' || state === 'rateLimited') && (
        <div className="mb-4">
          <FormAlert>
            <p>{state === 'error' ? t('link.error') : t('link.rateLimited')}</p>
          </FormAlert>
        </div>
      )}
      <Button
        className="min-h-12 w-full text-base"
        disabled={state === 'busy'}
        aria-busy={state === 'busy'}
        onClick={() => void onEnd()}
      >
        {state === 'busy' ? t('link.busy') : t('link.button')}
      </Button>
    </AuthCard>
  );
}
