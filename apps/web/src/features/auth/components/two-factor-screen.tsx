import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import {
  confirmSecondFactor,
  disableSecondFactor,
  getSecondFactorStatus,
  type SecondFactorStatus,
  setUpSecondFactor,
  type TotpSetup,
} from '../api/second-factor';
import { needsSignInAgain, tooManyAttempts } from '../error-messages';
import { CodeForm } from './code-form';
import { FormAlert } from './form-fields';
import { RecoveryCodes } from './recovery-codes';
import { SignInAgain } from './sign-in-again';
import { StepUpForm } from './step-up-form';
import { TotpSecret } from './totp-setup';
import { useAuthTexts } from './use-auth-texts';
import { useHasPassword } from './use-without-password';

type View =
  | { kind: 'status' }
  | { kind: 'password' }
  | { kind: 'setup'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[] };

const statusKey = ['second-factor'] as const;

/**
 * The profile's two-step verification (issue 24): on or off and the recovery codes left; turning
 * it on asks for the current password (a customer without one skips it), then shows the app's QR
 * code (and the key to type), takes the first code and shows the ten recovery codes once; turning
 * it off takes a current code, unless the tenant requires it.
 */
export function TwoFactorScreen() {
  const { t } = useTranslation('sessions');
  const authTexts = useAuthTexts();
  const { secondFactor: policy } = useVisualConfig();
  const [view, setView] = useState<View>({ kind: 'status' });
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [signInAgain, setSignInAgain] = useState(false);
  const [busy, setBusy] = useState(false);
  const hasPassword = useHasPassword();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const passwordTitleId = useId();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: statusKey, queryFn: getSecondFactorStatus });
  const reload = () => {
    setView({ kind: 'status' });
    void queryClient.invalidateQueries({ queryKey: statusKey });
  };

  const refusal = (error: unknown): string => {
    if (error instanceof ApiError && error.status === 422) return t('verify.wrong');
    if (error instanceof ApiError && error.status === 429)
      return authTexts.error(tooManyAttempts(error));
    return t('verify.error');
  };

  const enable = () => {
    setFailure(null);
    setNotice(null);
    setSignInAgain(false);
    if (hasPassword === false) void startWithoutPassword();
    else setView({ kind: 'password' });
  };

  // A customer without a password: their recent sign-in is the proof, or they sign in again.
  const startWithoutPassword = async () => {
    setBusy(true);
    try {
      setView({ kind: 'setup', setup: await setUpSecondFactor('') });
    } catch (error) {
      if (needsSignInAgain(error)) setSignInAgain(true);
      else setFailure(t('twoFactor.setupError'));
    } finally {
      setBusy(false);
    }
  };

  // The password step's: a refusal of the password is said in the step (StepUpForm).
  const startWithPassword = async (password: string) => {
    setView({ kind: 'setup', setup: await setUpSecondFactor(password) });
  };

  const confirm = async (code: string) => {
    try {
      const codes = await confirmSecondFactor(code);
      // On from now, whether or not the customer presses "Ya los he guardado": one who left from
      // the codes and came back within the cache's minute read "Desactivada" (session 39).
      queryClient.setQueryData(statusKey, { enabled: true, recovery_codes_left: codes.length });
      void queryClient.invalidateQueries({ queryKey: statusKey });
      setView({ kind: 'codes', codes });
      titleRef.current?.focus();
      return null;
    } catch (error) {
      return refusal(error);
    }
  };

  const disable = async (code: string) => {
    try {
      await disableSecondFactor(code);
      setNotice(t('twoFactor.disabled'));
      queryClient.setQueryData(statusKey, { enabled: false, recovery_codes_left: 0 });
      reload();
      titleRef.current?.focus();
      return null;
    } catch (error) {
      return refusal(error);
    }
  };

  return (
    <Page width="form">
      <h1 ref={titleRef} tabIndex={-1} className={cn(pageTitleClasses, 'outline-none')}>
        {view.kind === 'codes' ? t('twoFactor.codesTitle') : t('twoFactor.title')}
      </h1>
      {view.kind !== 'codes' && (
        <p className="mt-2 text-gray-700 dark:text-gray-300">{t('twoFactor.intro')}</p>
      )}
      <div role="status" aria-live="polite" className="mt-4 empty:hidden">
        {notice && (
          <p className="rounded-xl border border-green-700/30 bg-green-50 p-3 text-sm text-green-900 dark:border-green-400/30 dark:bg-green-950 dark:text-green-100">
            {notice}
          </p>
        )}
      </div>
      {failure && (
        <div className="mt-4">
          <FormAlert>
            <p>{failure}</p>
          </FormAlert>
        </div>
      )}
      {signInAgain && (
        <div className="mt-4">
          <SignInAgain />
        </div>
      )}
      <div className={cn(cardClasses, 'mt-6 p-5')}>
        {view.kind === 'status' && query.isPending && (
          <div role="status" aria-label={t('twoFactor.loading')} className="space-y-3">
            <Skeleton className="h-6 w-40" />
            <Skeleton className="h-4 w-64 max-w-full" />
          </div>
        )}
        {view.kind === 'status' && query.isError && (
          <div role="alert" className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium text-gray-900 dark:text-gray-100">
              {t('twoFactor.loadError')}
            </p>
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('twoFactor.retry')}
            </Button>
          </div>
        )}
        {view.kind === 'status' && query.data && (
          <StatusView
            status={query.data}
            required={policy === 'required'}
            offered={policy !== 'off'}
            // Until the profile says whether there is a password to ask for.
            busy={busy || hasPassword === undefined}
            onEnable={enable}
            onDisable={disable}
          />
        )}
        {view.kind === 'password' && (
          <section aria-labelledby={passwordTitleId} className="space-y-4">
            <h2 id={passwordTitleId} className={sectionTitleClasses}>
              {t('stepUp.title')}
            </h2>
            <StepUpForm
              intro={t('stepUp.twoFactorIntro')}
              busyLabel={t('stepUp.checking')}
              failedText={t('twoFactor.setupError')}
              onConfirm={startWithPassword}
              onCancel={reload}
            />
          </section>
        )}
        {view.kind === 'setup' && (
          <div className="space-y-4">
            <TotpSecret setup={view.setup} />
            <CodeForm
              submitLabel={t('twoFactor.confirm')}
              busyLabel={t('verify.submitting')}
              onSubmit={confirm}
            >
              <Button variant="ghost" className="w-full" onClick={reload}>
                {t('twoFactor.cancel')}
              </Button>
            </CodeForm>
          </div>
        )}
        {view.kind === 'codes' && (
          <RecoveryCodes
            codes={view.codes}
            onDone={() => {
              setNotice(t('twoFactor.enabled'));
              reload();
            }}
          />
        )}
      </div>
    </Page>
  );
}

function StatusView({
  status,
  required,
  offered,
  busy,
  onEnable,
  onDisable,
}: {
  status: SecondFactorStatus;
  required: boolean;
  offered: boolean;
  busy: boolean;
  onEnable: () => void;
  onDisable: (code: string) => Promise<string | null>;
}) {
  const { t } = useTranslation('sessions');
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className={sectionTitleClasses}>
          {t('twoFactor.title')}:{' '}
          <span
            className={
              status.enabled
                ? 'text-green-800 dark:text-green-300'
                : 'text-gray-700 dark:text-gray-300'
            }
          >
            {status.enabled ? t('twoFactor.on') : t('twoFactor.off')}
          </span>
        </h2>
        {!status.enabled && offered && (
          <Button onClick={onEnable} disabled={busy} aria-busy={busy}>
            {t('twoFactor.enable')}
          </Button>
        )}
      </div>
      {status.enabled && (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {t('twoFactor.recoveryLeft', { count: status.recovery_codes_left })}
        </p>
      )}
      {status.enabled && required && (
        <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.required')}</p>
      )}
      {status.enabled && !required && (
        <section className="space-y-3 border-t border-gray-200 pt-4 dark:border-gray-700">
          <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.disableIntro')}</p>
          <CodeForm
            recovery
            submitLabel={t('twoFactor.disableSubmit')}
            busyLabel={t('verify.submitting')}
            onSubmit={onDisable}
          />
        </section>
      )}
    </div>
  );
}
