import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useTranslation } from '@/lib/use-translation';
import { confirmEmailChange } from '../api/email-change';
import { AuthCard } from './auth-card';
import { SuccessMark } from './auth-icons';
import { FormAlert } from './form-fields';

type State = 'ready' | 'busy' | 'done' | 'invalid' | 'expired' | 'takenNow' | 'confirmFailed';

/**
 * The link sent to a new sign-in e-mail (issue 23). Opening it changes nothing: a mail scanner
 * that follows links must not confirm the change. The button does; then the screen says which
 * address the customer signs in with from now on.
 */
export function ConfirmEmailScreen() {
  const { t } = useTranslation('sessions');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? 'ready' : 'invalid');
  const [email, setEmail] = useState('');
  const titleRef = useRef<HTMLHeadingElement>(null);
  const finished = state === 'done' || state === 'invalid' || state === 'expired';

  useEffect(() => {
    if (finished) titleRef.current?.focus();
  }, [finished]);

  const onConfirm = async () => {
    setState('busy');
    try {
      setEmail(await confirmEmailChange(token));
      setState('done');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setState('expired');
      else if (error instanceof ApiError && error.status === 422)
        setState(error.errors?.email ? 'takenNow' : 'invalid');
      else setState('confirmFailed');
    }
  };

  if (state === 'done') {
    return (
      <AuthCard title={t('emailChange.confirmedTitle')} titleRef={titleRef} icon={<SuccessMark />}>
        <p className="mt-2 text-center break-words text-gray-700 dark:text-gray-300">
          {t('emailChange.confirmed', { email })}
        </p>
        <Link
          to={paths.login}
          className={buttonClasses('primary', 'mt-6 min-h-12 w-full text-base')}
        >
          {t('emailChange.toLogin')}
        </Link>
      </AuthCard>
    );
  }

  if (state === 'invalid' || state === 'expired') {
    return (
      <AuthCard title={t('emailChange.confirmTitle')} titleRef={titleRef}>
        <div className="mt-4">
          <FormAlert>
            <p>{t(`emailChange.${state}`)}</p>
          </FormAlert>
        </div>
        <Link
          to={paths.login}
          className={buttonClasses('primary', 'mt-6 min-h-12 w-full text-base')}
        >
          {t('emailChange.toLogin')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('emailChange.confirmTitle')}
      titleRef={titleRef}
      description={t('emailChange.confirmIntro')}
    >
      {(state === 'takenNow' || state === 'confirmFailed') && (
        <div className="mb-4">
          <FormAlert>
            <p>{t(`emailChange.${state}`)}</p>
          </FormAlert>
        </div>
      )}
      <Button
        className="min-h-12 w-full text-base"
        disabled={state === 'busy' || state === 'takenNow'}
        aria-busy={state === 'busy'}
        onClick={() => void onConfirm()}
      >
        {state === 'busy' ? t('emailChange.confirmBusy') : t('emailChange.confirmButton')}
      </Button>
    </AuthCard>
  );
}
