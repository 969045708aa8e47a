/**
 * Every page of the web app (spec §2 "Route table"): the one table the web app's router and links
 * read (apps/web/src/config/paths.ts re-exports it) and the server writes its links with (the reset
 * e-mail, the invitation, the card gateway's return pages, the sign-in error, a notification's
 * "Acceder"). Spanish and English paths are the spec's and stay as they are. Free of zod: the
 * browser's first chunk imports it.
 */
export const appPaths = {
  root: '/',
  login: '/login',
  register: '/register',
  recoverPassword: '/recover-password',
  resetPassword: '/reset-password',
  loginLink: '/login-link',
  verifySignIn: '/verify-sign-in',
  signInLink: '/sign-in-link',
  home: '/home',
  myActivity: '/mi-actividad',
  userProfile: '/user-profile',
  contactData: '/user-profile/contact-data',
  changeEmail: '/change-email',
  confirmEmail: '/confirm-email',
  changePassword: '/change-password',
  devices: '/devices',
  twoFactor: '/two-factor',
  passkeys: '/passkeys',
  endSessionLink: '/end-session',
  invoices: '/invoices',
  invoicesAlias: '/facturas',
  invoiceDetail: {
    pattern: '/invoice-detail/:id',
    href: (id: string) => `/invoice-detail/${encodeURIComponent(id)}`,
  },
  payments: '/mis-pagos',
  paymentsAlias: '/pagos',
  paymentCheckin: '/payment-checkin',
  paymentCheckout: '/payment-checkout',
  paymentSuccess: '/payment/success',
  paymentError: '/payment/error',
  paymentMethods: '/metodos-de-pago',
  addBankAccount: '/add-bank-account',
  addCard: '/añadir-tarjeta',
  addBankTransfer: '/add-bank-transfer',
  bankAccount: '/bank-account',
  /** Sign the SEPA mandate of a saved bank account that has none (`?id=<method id>`). */
  signMandate: '/firmar-mandato',
  creditCard: '/credit-card',
  bankData: '/datos-bancarios',
  notifications: '/my-notifications',
  contact: '/contacto',
  privacy: '/privacidad',
  security: '/seguridad',
  cookies: '/cookies',
  accessibility: '/accesibilidad',
  authCallback: {
    pattern: '/auth/:provider/callback',
    href: (provider: 'google' | 'apple' | 'microsoft') => `/auth/${provider}/callback`,
  },
  unauthorized: '/unauthorized',
  errorGeneral: '/error/general',
  errorNotFound: '/error/not-found',
  errorAccessDenied: '/error/access-denied',
  fiscalData: '/user-profile/fiscal-data',
  invoiceThreads: '/consultas',
  invoiceThread: {
    pattern: '/consultas/:id',
    href: (id: string) => `/consultas/${encodeURIComponent(id)}`,
  },
  /** Receipts, statements and invoice archives (issue 23, item 3); `?recibo=<payment id>`. */
  documents: '/documentos',
} as const;

export type TAppPathName = keyof typeof appPaths;

/** The pattern of a page (`/invoice-detail/:id` for one with parameters). */
export const appPathPattern = (name: TAppPathName): string => {
  const path = appPaths[name];
  return typeof path === 'string' ? path : path.pattern;
};
