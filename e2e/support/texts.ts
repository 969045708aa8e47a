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
  validation: Record<
    'required' | 'invalidEmail' | 'passwordMismatch' | 'passwordContainsName',
    string
  >;
  errors: Record<
    | 'invalidCredentials'
    | 'noAccount'
    | 'signInFailed'
    | 'passwordCommon'
    | 'wrongPassword'
    | 'passkeyCancelled'
    | 'passkeyRefused',
    string
  >;
  login: {
    rememberMe: string;
    forgotPassword: string;
    submit: string;
    continueWith: string;
    withLink: string;
    withPasskey: string;
  };
  recovery: { title: string; submit: string; successTitle: string; backToLogin: string };
  reset: {
    title: string;
    submit: string;
    successTitle: string;
    goToLogin: string;
    strength: Record<'label' | 'tooWeak' | 'weak' | 'fair' | 'good' | 'strong', string>;
  };
  change: Record<'title' | 'currentPassword' | 'submit' | 'successTitle' | 'backToProfile', string>;
  callback: { failedTitle: string; backToLogin: string };
  profile: {
    title: string;
    editContact: string;
    changeEmail: string;
    changePassword: string;
    devices: string;
    twoFactor: string;
    passkeys: string;
    sections: Record<'fiscal' | 'contact' | 'billing', string>;
  };
  options: Record<'myUser' | 'invoices' | 'payments', string>;
  activity: { title: string };
};

type CommonTexts = {
  nav: {
    openMenu: string;
    mainLabel: string;
    myActivity: string;
    notificationsUnread_other: string;
  };
  menu: { logout: string; invoices: string };
  login: { title: string };
  errors: { accessDenied: { title: string } };
};

export const authTexts = read<AuthTexts>('auth');
export const commonTexts = read<CommonTexts>('common');

/** e2e/notifications.spec.ts: the texts of the inbox and the bell. */
type NotificationsTexts = {
  title: string;
  filters: Record<'label' | 'all' | 'unread' | 'read', string>;
  groups: Record<'today' | 'yesterday', string>;
  list: Record<'label' | 'empty' | 'loadError' | 'retry' | 'noMore', string>;
  item: Record<'unread' | 'open' | 'markRead' | 'delete', string>;
  selection: Record<'start' | 'cancel' | 'all' | 'markRead' | 'delete' | 'count_other', string>;
  confirmDelete: Record<'title_other' | 'confirm' | 'cancel', string>;
  done: Record<'read_one' | 'deleted_one' | 'deleted_other', string>;
};

/** e2e/contact.spec.ts: the texts of the contact form. */
type ContactTexts = {
  title: string;
  formLabel: string;
  clubEmail: string;
  clubPhone: string;
  fields: Record<
    'name' | 'company' | 'subject' | 'message' | 'characters' | 'acceptPrivacy' | 'privacyLink',
    string
  >;
  validation: Record<'required' | 'privacyRequired' | 'tooLong', string>;
  submit: string;
  errors: Record<'network' | 'rateLimited_other', string>;
  success: Record<'title' | 'sendNew' | 'backToHome', string>;
};

/** e2e/devices.spec.ts: "Your devices" and the "was this you?" link. */
type SessionsTexts = {
  emailChange: Record<
    | 'newEmail'
    | 'currentPassword'
    | 'submit'
    | 'sentTitle'
    | 'confirmTitle'
    | 'confirmButton'
    | 'confirmedTitle',
    string
  >;
  title: string;
  thisDevice: string;
  endLabel: string;
  ended: string;
  endedOthers_one: string;
  endOthers: string;
  onlyThis: string;
  link: Record<'title' | 'button' | 'done' | 'invalid', string>;
  linkRequest: Record<'title' | 'submit' | 'successTitle', string>;
  linkSignIn: Record<'title' | 'button' | 'invalid' | 'askAgain', string>;
  passkeys: Record<
    | 'title'
    | 'add'
    | 'emptyTitle'
    | 'renameLabel'
    | 'name'
    | 'save'
    | 'renamed'
    | 'removeLabel'
    | 'remove'
    | 'removed'
    | 'added',
    string
  > & { errors: Record<'required', string> };
  verify: Record<'title' | 'code' | 'recoveryCode' | 'submit' | 'useRecovery' | 'wrong', string>;
  /** The current password asked before adding a passkey or turning on the second factor. */
  stepUp: Record<'title' | 'currentPassword' | 'continue', string> & {
    errors: Record<'wrongPassword', string>;
  };
  twoFactor: Record<
    | 'title'
    | 'on'
    | 'off'
    | 'enable'
    | 'qrLabel'
    | 'confirm'
    | 'codesTitle'
    | 'continue'
    | 'enabled'
    | 'recoveryLeft_other'
    | 'disableSubmit'
    | 'disabled',
    string
  >;
};

export const notificationsTexts = read<NotificationsTexts>('notifications');
export const sessionsTexts = read<SessionsTexts>('sessions');
export const contactTexts = read<ContactTexts>('contact');

/** e2e/profile.spec.ts: the contact data screen (issue 23). */
type ProfileTexts = {
  contactData: {
    title: string;
    save: string;
    saved: string;
    invalid: string;
    back: string;
    fields: Record<
      'phone' | 'invoiceEmail' | 'shippingAddress' | 'postalCode' | 'city' | 'province' | 'country',
      string
    >;
  };
  errors: Record<'invalidPhone' | 'invalidEmail', string>;
};
export const profileTexts = read<ProfileTexts>('profile');

/** `{{name}}` placeholders of a text filled in. */
export const fillText = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => String(values[key] ?? ''));
