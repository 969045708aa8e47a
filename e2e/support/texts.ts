import { readFileSync } from 'node:fs';

/** The Spanish texts the screens show, read from the app's own locale files. */
const read = <T>(namespace: string): T =>
  JSON.parse(
    readFileSync(
      new URL(`../../apps/web/src/locales/es/${namespace}.json`, import.meta.url),
      'utf8',
    ),
  ) as T;

type AuthTexts = {
  fields: Record<'email' | 'password' | 'newPassword' | 'confirmPassword', string>;
  validation: Record<'required' | 'invalidEmail' | 'passwordMismatch', string>;
  errors: Record<'invalidCredentials' | 'noAccount' | 'signInFailed', string>;
  login: { rememberMe: string; forgotPassword: string; submit: string; continueWith: string };
  recovery: { title: string; submit: string; successTitle: string; backToLogin: string };
  reset: { title: string; submit: string; successTitle: string; goToLogin: string };
  callback: { failedTitle: string; backToLogin: string };
  profile: { title: string; sections: Record<'fiscal' | 'contact' | 'billing', string> };
  options: Record<'myUser' | 'invoices' | 'payments', string>;
  activity: { title: string };
};

type CommonTexts = {
  nav: { openMenu: string; mainLabel: string; myActivity: string };
  menu: { logout: string };
  login: { title: string };
  errors: { accessDenied: { title: string } };
};

export const authTexts = read<AuthTexts>('auth');
export const commonTexts = read<CommonTexts>('common');
