import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, useNavigate } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { isRestorablePath, pathAfterSignIn } from '@/lib/last-path';
import {
  clearVerifyState,
  completeSecondFactor,
  enrolDuringSignIn,
  readVerifyState,
  type TotpSetup,
  type VerifyState,
} from '../api/second-factor';
import { tooManyAttempts } from '../error-messages';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { FormAlert, textLinkClasses } from './form-fields';
import { RecoveryCodes } from './recovery-codes';
import { TotpSecret } from './totp-setup';
import { useAuthTexts } from './use-auth-texts';

/**
 * The second step of a sign-in (issue 24): after the password or the link, the code from the
 * authenticator app or a recovery code. Where the tenant requires a second factor the customer has
 * not set up, the app's QR code comes first, and the recovery codes after the first code. The
 * challenge travels in the history state only: a reload or a shared address starts again.
 */
export function VerifySignInScreen() {
  const { t } = useTranslation('sessions');
  const authTexts = useAuthTexts();
  const navigate = useNavigate();
  const [state] = useState<VerifyState | null>(readVerifyState);
  const [recovery, setRecovery] = useState(false);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [setupFailed, setSetupFailed] = useState(false);
  const [expired, setExpired] = useState(!state);
  const [codes, setCodes] = useState<{ codes: string[]; next: string } | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const enrolling = state?.kind === 'enrol';

  useEffect(() => {
    if (!state || state.kind !== 'enrol') return;
    let live = true;
    enrolDuringSignIn(state.challenge).then(
      (answer) => live && setSetup(answer),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 400) setExpired(true);
        else setSetupFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [state]);

  useEffect(() => {
    if (expired || codes) titleRef.current?.focus();
  }, [expired, codes]);

  const go = (next: string) =>
    void navigate(isRestorablePath(next) ? next : pathAfterSignIn(), { replace: true });

  const submit = async (code: string): Promise<string | null> => {
    if (!state) return null;
    try {
      const done = await completeSecondFactor(state.challenge, code);
      clearVerifyState();
      if (done.recoveryCodes.length > 0) setCodes({ codes: done.recoveryCodes, next: done.next });
      else go(done.next);
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) return t('verify.error');
      if (error.status === 422) return t('verify.wrong');
      if (error.status === 400) {
        clearVerifyState();
        setExpired(true);
        return null;
      }
      if (error.status === 429) return authTexts.error(tooManyAttempts(error));
      return t('verify.error');
    }
  };

  if (codes) {
    return (
      <AuthCard title={t('twoFactor.codesTitle')} titleRef={titleRef}>
        <RecoveryCodes codes={codes.codes} onDone={() => go(codes.next)} />
      </AuthCard>
    );
  }

  if (expired) {
    return (
      <AuthCard title={t('verify.title')} titleRef={titleRef}>
        <div className="mb-4">
          <FormAlert>
            <p>{state ? t('verify.expired') : t('verify.missing')}</p>
          </FormAlert>
        </div>
        <Link to={paths.login} className={buttonClasses('primary', 'min-h-12 w-full text-base')}>
          {t('verify.toLogin')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('verify.title')}
      titleRef={titleRef}
      description={
        enrolling
          ? t('verify.enrolIntro')
          : recovery
            ? t('verify.introRecovery')
            : t('verify.intro')
      }
    >
      {enrolling && setupFailed && (
        <div className="mb-4">
          <FormAlert>
            <p>{t('twoFactor.setupError')}</p>
          </FormAlert>
        </div>
      )}
      {enrolling && setup && (
        <div className="mb-4">
          <TotpSecret setup={setup} />
        </div>
      )}
      {(!enrolling || setup) && (
        <CodeForm
          key={recovery ? 'recovery' : 'app'}
          recovery={recovery}
          submitLabel={t('verify.submit')}
          busyLabel={t('verify.submitting')}
          onSubmit={submit}
        >
          {!enrolling && (
            <p className="text-center">
              <button
                type="button"
                className={textLinkClasses}
                onClick={() => setRecovery((current) => !current)}
              >
                {recovery ? t('verify.useApp') : t('verify.useRecovery')}
              </button>
            </p>
          )}
        </CodeForm>
      )}
    </AuthCard>
  );
}
