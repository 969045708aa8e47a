/**
 * Method, path and credentials of every call, free of zod so that the web app's first chunk can
 * import it without the schemas. `routes.ts` adds the schemas to exactly these entries.
 */

/** Every call lives under `/{tenant}/api/1.0` (spec §7, PRODUCT.md "Tenancy"). */
export const apiVersion = '1.0';
export const apiPrefix = (tenant: string): string => `/${tenant}/api/${apiVersion}`;

/** Spec §3 default, used by the web app when `/visual-config` fails. */
export const defaultPrimaryColor = 'FF9900';

/**
 * - public: no credentials.
 * - bearer: `Authorization: Bearer <access token>`.
 * - cookie: the refresh cookie plus the XSRF double-submit header.
 * - apiKey: `Authorization: Bearer <tenant API key>` (the provider's integration, `/admin/...`).
 */
export type TRouteAuth = 'public' | 'bearer' | 'cookie' | 'apiKey';

export type TRoutePath = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path after the prefix, in Fastify's `:param` form. */
  path: string;
  auth: TRouteAuth;
};

export const routePaths = {
  visualConfig: { method: 'GET', path: '/visual-config', auth: 'public' },
  login: { method: 'POST', path: '/login', auth: 'public' },
  refreshToken: { method: 'POST', path: '/refresh-token', auth: 'cookie' },
  logout: { method: 'POST', path: '/logout', auth: 'cookie' },
  forgotPassword: { method: 'POST', path: '/forgot-password', auth: 'public' },
  resetPassword: { method: 'POST', path: '/reset-password', auth: 'public' },
  secondFactorSignIn: { method: 'POST', path: '/login/second-factor', auth: 'public' },
  secondFactorEnrol: { method: 'POST', path: '/login/second-factor/enrol', auth: 'public' },
  secondFactor: { method: 'GET', path: '/second-factor', auth: 'bearer' },
  secondFactorSetup: { method: 'POST', path: '/second-factor/setup', auth: 'bearer' },
  secondFactorConfirm: { method: 'POST', path: '/second-factor/confirm', auth: 'bearer' },
  secondFactorDisable: { method: 'POST', path: '/second-factor/disable', auth: 'bearer' },
  passkeySignInOptions: { method: 'POST', path: '/passkeys/sign-in/options', auth: 'public' },
  passkeySignIn: { method: 'POST', path: '/passkeys/sign-in', auth: 'public' },
  passkeys: { method: 'GET', path: '/passkeys', auth: 'bearer' },
  passkeyRegisterOptions: { method: 'POST', path: '/passkeys/register/options', auth: 'bearer' },
  passkeyRegister: { method: 'POST', path: '/passkeys/register', auth: 'bearer' },
  renamePasskey: { method: 'POST', path: '/passkeys/:id/rename', auth: 'bearer' },
  deletePasskey: { method: 'POST', path: '/passkeys/:id/delete', auth: 'bearer' },
  signInLink: { method: 'POST', path: '/sign-in-link', auth: 'public' },
  redeemSignInLink: { method: 'POST', path: '/sign-in-link/redeem', auth: 'public' },
  changePassword: { method: 'POST', path: '/change-password', auth: 'bearer' },
  signInCallback: { method: 'POST', path: '/auth/:provider/callback', auth: 'public' },
  sessions: { method: 'GET', path: '/sessions', auth: 'bearer' },
  endSession: { method: 'POST', path: '/sessions/:id/end', auth: 'bearer' },
  endOtherSessions: { method: 'POST', path: '/sessions/end-others', auth: 'bearer' },
  endSessionByLink: { method: 'POST', path: '/sessions/end-by-link', auth: 'public' },
  userProfile: { method: 'GET', path: '/user/profile/:id', auth: 'bearer' },
  updateContactData: { method: 'PUT', path: '/user/contact-data', auth: 'bearer' },
  requestEmailChange: { method: 'POST', path: '/user/email-change', auth: 'bearer' },
  confirmEmailChange: { method: 'POST', path: '/user/email-change/confirm', auth: 'public' },
  invoices: { method: 'POST', path: '/invoices', auth: 'bearer' },
  invoiceSummary: { method: 'POST', path: '/invoices/summary', auth: 'bearer' },
  invoice: { method: 'POST', path: '/invoice', auth: 'bearer' },
  relatedInvoices: { method: 'POST', path: '/invoices/related', auth: 'bearer' },
  invoicePdf: { method: 'POST', path: '/invoice/pdf', auth: 'bearer' },
  payments: { method: 'POST', path: '/payments', auth: 'bearer' },
  checkoutPreview: { method: 'POST', path: '/redsys/checkout-preview', auth: 'bearer' },
  balance: { method: 'GET', path: '/balance', auth: 'bearer' },
  initPayment: { method: 'POST', path: '/redsys/init-payment', auth: 'bearer' },
  paymentStatus: { method: 'GET', path: '/redsys/payment/:id/status', auth: 'bearer' },
  paymentMethods: { method: 'GET', path: '/payment-methods', auth: 'bearer' },
  addBankAccount: { method: 'POST', path: '/payment-methods/bank-account', auth: 'bearer' },
  addCard: { method: 'POST', path: '/payment-methods/card', auth: 'bearer' },
  updatePaymentMethod: { method: 'PATCH', path: '/payment-methods/:id', auth: 'bearer' },
  deletePaymentMethod: { method: 'DELETE', path: '/payment-methods/:id', auth: 'bearer' },
  requestMainMethod: { method: 'POST', path: '/payment-methods/:id/main-request', auth: 'bearer' },
  requestVerification: {
    method: 'POST',
    path: '/payment-methods/:id/verification-request',
    auth: 'bearer',
  },
  signBankAccountMandate: {
    method: 'POST',
    path: '/payment-methods/:id/sepa-mandate',
    auth: 'bearer',
  },
  bankTransferInfo: { method: 'GET', path: '/payment-methods/bank-transfer', auth: 'bearer' },
  notifications: { method: 'POST', path: '/notifications', auth: 'bearer' },
  unreadNotifications: { method: 'GET', path: '/notifications/unread-count', auth: 'bearer' },
  readNotifications: { method: 'POST', path: '/notifications/read', auth: 'bearer' },
  deleteNotifications: { method: 'POST', path: '/notifications/delete', auth: 'bearer' },
  contact: { method: 'POST', path: '/contact', auth: 'bearer' },
  fiscalDataRequests: { method: 'GET', path: '/user/fiscal-data-requests', auth: 'bearer' },
  requestFiscalDataChange: { method: 'POST', path: '/user/fiscal-data-requests', auth: 'bearer' },
  withdrawFiscalDataRequest: {
    method: 'DELETE',
    path: '/user/fiscal-data-requests/:id',
    auth: 'bearer',
  },
  dismissFiscalDataDecision: {
    method: 'POST',
    path: '/user/fiscal-data-requests/:id/dismiss',
    auth: 'bearer',
  },
  invoiceThreads: { method: 'POST', path: '/invoice-threads/list', auth: 'bearer' },
  openInvoiceThread: { method: 'POST', path: '/invoice-threads', auth: 'bearer' },
  unreadInvoiceThreads: { method: 'GET', path: '/invoice-threads/unread-count', auth: 'bearer' },
  invoiceThread: { method: 'GET', path: '/invoice-threads/:id', auth: 'bearer' },
  replyInvoiceThread: { method: 'POST', path: '/invoice-threads/:id/messages', auth: 'bearer' },
  receipts: { method: 'GET', path: '/documents/receipts', auth: 'bearer' },
  receiptLink: { method: 'POST', path: '/documents/receipt', auth: 'bearer' },
  statementLink: { method: 'POST', path: '/documents/statement', auth: 'bearer' },
  invoicesZipLink: { method: 'POST', path: '/documents/invoices-zip', auth: 'bearer' },
  autoPay: { method: 'GET', path: '/user/auto-pay', auth: 'bearer' },
  setAutoPay: { method: 'PUT', path: '/payment-methods/:id/auto-pay', auth: 'bearer' },
  sepaMandates: { method: 'GET', path: '/sepa-mandates', auth: 'bearer' },
  sepaMandatePdf: { method: 'POST', path: '/sepa-mandates/:id/pdf', auth: 'bearer' },
} as const satisfies Record<string, TRoutePath>;

export type TRouteName = keyof typeof routePaths;

/** External sign-in starts with a browser navigation here (a redirect to the provider). */
export const signInStartPath = (provider: 'google' | 'apple' | 'microsoft'): string =>
  `/auth/${provider}/start`;
