import { type FormEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { pathAfterSignIn } from '@/lib/last-path';
import { typedChecked, typedText } from '@/lib/prerender';
import { useVisualConfig } from '@/lib/visual-config';
import { login } from '../api/login';
import { saveVerifyState } from '../api/second-factor';
import {
  type AuthMessage,
  externalSignInErrorMessage,
  loginErrorMessage,
  passkeyErrorMessage,
} from '../error-messages';
import { type FieldErrors, hasErrors, validateLogin } from '../validation';
import { AuthCard } from './auth-card';
import { FormAlert, PasswordField, SubmitButton, TextField, textLinkClasses } from './form-fields';
import { ProviderButtons } from './provider-buttons';
import { useAuthTexts } from './use-auth-texts';

type Field = 'email' | 'password';

/**
 * Spec §2 "Login": e-mail, password, remember me, the link to recovery and the external sign-in
 * buttons. After signing in the customer goes back to the last visited path, else /home (spec §2).
 */
export function LoginScreen() {
  const { t } = useTranslation(['common', 'auth']);
  const texts = useAuthTexts();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { signInProviders, signInLink, passkeys } = useVisualConfig();
  const alertId = useId();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<AuthMessage | null>(() => {
    // The API sends a failed external sign-in back here (`?signin_error=sign_in_failed`).
    const signInError = searchParams.get('signin_error');
    return signInError ? externalSignInErrorMessage(signInError) : null;
  });
  const [credentialsRejected, setCredentialsRejected] = useState(false);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const rememberRef = useRef<HTMLInputElement>(null);

  // What was typed into the prerendered form before React took it over (lib/prerender.ts), taken
  // right after the first commit and before the browser paints: hydration itself sees the
  // server's empty form, as it must. Hydrated, the fields are the page's own nodes, with every key
  // typed until now; rendered afresh over the page (main.tsx), what was read from them before.
  useLayoutEffect(() => {
    const typedEmail = emailRef.current?.value || typedText('email');
    const typedPassword = passwordRef.current?.value || typedText('password');
    const typedRemember = Boolean(rememberRef.current?.checked) || typedChecked('remember');
    if (typedEmail) setEmail(typedEmail);
    if (typedPassword) setPassword(typedPassword);
    if (typedRemember) setRemember(true);
  }, []);

  // Passkeys in the e-mail field's suggestions, where the browser offers them (conditional
  // mediation): asked for when the field is first focused, so the page's first load carries no
  // WebAuthn code and makes no request for it (decision 029).
  const autofill = useRef<{ started: boolean; cancel: () => void }>({
    started: false,
    cancel: () => {},
  });
  useEffect(() => {
    const state = autofill.current;
    return () => state.cancel();
  }, []);
  const offerPasskeys = () => {
    const state = autofill.current;
    if (!passkeys || state.started || !window.PublicKeyCredential?.isConditionalMediationAvailable)
      return;
    state.started = true;
    void (async () => {
      if (!(await window.PublicKeyCredential.isConditionalMediationAvailable())) return;
      const module = await import('../api/passkeys');
      state.cancel = module.cancelPasskeyRequest;
      try {
        await module.signInWithPasskey(() => rememberRef.current?.checked === true, {
          autofill: true,
        });
        await navigate(pathAfterSignIn(), { replace: true });
      } catch {
        // Cancelled, or replaced by another way of signing in: nothing to say.
      }
    })();
  };

  const onPasskey = async () => {
    if (busy) return;
    setFailure(null);
    setBusy(true);
    try {
      if (!window.PublicKeyCredential) throw new DOMException('', 'NotSupportedError');
      const { signInWithPasskey } = await import('../api/passkeys');
      await signInWithPasskey(() => remember);
      await navigate(pathAfterSignIn(), { replace: true });
    } catch (error) {
      setFailure(passkeyErrorMessage(error));
      setBusy(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateLogin({ email, password });
    setErrors(found);
    setFailure(null);
    setCredentialsRejected(false);
    if (hasErrors(found)) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const challenge = await login({ email, password, remember });
      if (challenge) {
        saveVerifyState(challenge);
        await navigate(paths.verifySignIn);
        return;
      }
      await navigate(pathAfterSignIn(), { replace: true });
    } catch (error) {
      const message = loginErrorMessage(error);
      setFailure(message);
      // Spec §5: a refused sign-in marks both fields.
      if (message.key === 'invalidCredentials') {
        setCredentialsRejected(true);
        emailRef.current?.focus();
      }
      setBusy(false);
    }
  };

  const clearError = (field: Field) => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <AuthCard title={t('login.title')} description={t('login.subtitle')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {failure && <FormAlert id={alertId}>{texts.error(failure)}</FormAlert>}
        <TextField
          ref={emailRef}
          label={t('auth:fields.email')}
          type="email"
          name="email"
          autoComplete={passkeys ? 'email webauthn' : 'email'}
          onFocus={offerPasskeys}
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            clearError('email');
          }}
          error={texts.field(errors.email)}
          invalid={credentialsRejected}
          describedBy={credentialsRejected ? alertId : undefined}
          required
        />
        <PasswordField
          ref={passwordRef}
          label={t('auth:fields.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            clearError('password');
          }}
          error={texts.field(errors.password)}
          invalid={credentialsRejected}
          describedBy={credentialsRejected ? alertId : undefined}
          required
        />
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-sm text-gray-800 dark:text-gray-100">
            <input
              ref={rememberRef}
              type="checkbox"
              name="remember"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
              className="size-5 rounded accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
            />
            {t('auth:login.rememberMe')}
          </label>
          <Link to={paths.recoverPassword} className={textLinkClasses}>
            {t('auth:login.forgotPassword')}
          </Link>
        </div>
        <SubmitButton
          busy={busy}
          label={t('auth:login.submit')}
          busyLabel={t('auth:login.submitting')}
        />
      </form>
      {passkeys && (
        <button
          type="button"
          onClick={() => void onPasskey()}
          disabled={busy}
          className="mt-3 inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-xl border border-gray-300 bg-white px-4 py-2 text-base font-semibold text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:opacity-70 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700"
        >
          {t('auth:login.withPasskey')}
        </button>
      )}
      {signInLink && (
        <p className="mt-3 text-center">
          <Link to={paths.loginLink} className={textLinkClasses}>
            {t('auth:login.withLink')}
          </Link>
        </p>
      )}
      <ProviderButtons providers={signInProviders} remember={remember} />
    </AuthCard>
  );
}
