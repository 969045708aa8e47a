import type { z } from 'zod';
import { routePaths, type TRouteName, type TRoutePath } from './paths.ts';
import * as account from './account.ts';
import * as auth from './auth.ts';
import * as documents from './documents.ts';
import * as invoices from './invoices.ts';
import * as payments from './payments.ts';
import * as redsys from './redsys.ts';
import * as passkeys from './passkeys.ts';
import * as sessions from './sessions.ts';
import * as invoiceThreads from './invoice-threads.ts';
import { ZVisualConfig } from './visual-config.ts';
import * as fiscal from './fiscal-data.ts';
import * as autoPay from './auto-pay.ts';
import * as sepa from './sepa-mandates.ts';

export type TRouteDef = TRoutePath & {
  summary: string;
  params?: z.ZodType;
  /** Query string parameters (an object schema; values arrive as strings). */
  querystring?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Status of a successful answer (200 unless stated). */
  status?: number;
  /** Largest accepted body in bytes (1 MiB unless stated): the admin batches are larger. */
  bodyLimit?: number;
};

/** The calls of spec §7 and PRODUCT.md, one entry each: the single source of every path. */
export const routes = {
  visualConfig: {
    ...routePaths.visualConfig,
    summary: "The tenant's branding and sign-in options",
    response: ZVisualConfig,
  },
  login: {
    ...routePaths.login,
    summary: 'Sign in with e-mail and password',
    body: auth.ZLoginRequest,
    response: auth.ZPasswordLoginResponse,
  },
  refreshToken: {
    ...routePaths.refreshToken,
    summary: 'Rotate the refresh cookie and answer a new access token',
    response: auth.ZRefreshResponse,
  },
  logout: {
    ...routePaths.logout,
    summary: 'Revoke the session',
    response: auth.ZAccepted,
  },
  forgotPassword: {
    ...routePaths.forgotPassword,
    summary: 'Send a password-reset link by e-mail',
    body: auth.ZForgotPasswordRequest,
    response: auth.ZAccepted,
    status: 202,
  },
  resetPassword: {
    ...routePaths.resetPassword,
    summary: 'Set a new password with a reset token',
    body: auth.ZResetPasswordRequest,
    response: auth.ZAccepted,
  },
  secondFactorSignIn: {
    ...routePaths.secondFactorSignIn,
    summary: 'The code after the password or link: signs in (the challenge is single use)',
    body: auth.ZSecondFactorRequest,
    response: auth.ZSecondFactorSession,
  },
  secondFactorEnrol: {
    ...routePaths.secondFactorEnrol,
    summary: "During a sign-in the tenant requires a second factor for: the app's secret",
    body: auth.ZSecondFactorEnrolRequest,
    response: auth.ZTotpSetup,
  },
  secondFactor: {
    ...routePaths.secondFactor,
    summary: "The customer's second factor: on or off, recovery codes left",
    response: auth.ZSecondFactorStatus,
  },
  secondFactorSetup: {
    ...routePaths.secondFactorSetup,
    summary:
      'A new authenticator secret, pending until confirmed with a code; the current password proves it is the owner',
    body: auth.ZStepUpRequest,
    response: auth.ZTotpSetup,
  },
  secondFactorConfirm: {
    ...routePaths.secondFactorConfirm,
    summary: 'Turn the second factor on with a code from the app; answers the recovery codes once',
    body: auth.ZCodeRequest,
    response: auth.ZRecoveryCodes,
  },
  secondFactorDisable: {
    ...routePaths.secondFactorDisable,
    summary: 'Turn the second factor off with a current code (or a recovery code)',
    body: auth.ZCodeRequest,
    response: auth.ZAccepted,
  },
  passkeySignInOptions: {
    ...routePaths.passkeySignInOptions,
    summary: 'A WebAuthn challenge to sign in with a passkey (single use, 5 minutes)',
    response: passkeys.ZWebAuthnOptions,
  },
  passkeySignIn: {
    ...routePaths.passkeySignIn,
    summary: "Sign in with a passkey's signed challenge (no second code: it is two factors)",
    body: passkeys.ZPasskeySignInRequest,
    response: auth.ZLoginResponse,
  },
  passkeys: {
    ...routePaths.passkeys,
    summary: "The customer's passkeys",
    response: passkeys.ZPasskeysResponse,
  },
  passkeyRegisterOptions: {
    ...routePaths.passkeyRegisterOptions,
    summary: 'A WebAuthn challenge to add a passkey; the current password proves it is the owner',
    body: auth.ZStepUpRequest,
    response: passkeys.ZWebAuthnOptions,
  },
  passkeyRegister: {
    ...routePaths.passkeyRegister,
    summary: 'Add the passkey the browser created for the challenge',
    body: passkeys.ZPasskeyRegisterRequest,
    response: passkeys.ZPasskey,
    status: 201,
  },
  renamePasskey: {
    ...routePaths.renamePasskey,
    summary: 'Rename one of the customer passkeys',
    params: passkeys.ZPasskeyParams,
    body: passkeys.ZRenamePasskeyRequest,
    response: auth.ZAccepted,
  },
  deletePasskey: {
    ...routePaths.deletePasskey,
    summary: 'Remove one of the customer passkeys',
    params: passkeys.ZPasskeyParams,
    response: auth.ZAccepted,
  },
  signInLink: {
    ...routePaths.signInLink,
    summary: 'Send a sign-in link by e-mail (the same answer for any address)',
    body: auth.ZSignInLinkRequest,
    response: auth.ZAccepted,
    status: 202,
  },
  redeemSignInLink: {
    ...routePaths.redeemSignInLink,
    summary: "Sign in with an e-mailed link's token (single use, short-lived)",
    body: auth.ZRedeemSignInLinkRequest,
    response: auth.ZRedeemSignInLinkResponse,
  },
  changePassword: {
    ...routePaths.changePassword,
    summary: "Change the signed-in customer's password; every other session ends",
    body: auth.ZChangePasswordRequest,
    response: auth.ZAccepted,
  },
  signInCallback: {
    ...routePaths.signInCallback,
    summary: 'Finish an external sign-in (OpenID Connect) with the code and state',
    params: auth.ZOidcCallbackParams,
    body: auth.ZOidcCallbackRequest,
    response: auth.ZLoginResponse,
  },
  sessions: {
    ...routePaths.sessions,
    summary: 'Where the customer is signed in: every open session, this one marked',
    response: sessions.ZSessionsResponse,
  },
  endSession: {
    ...routePaths.endSession,
    summary: "End one of the customer's sessions; its tokens are refused at once",
    params: sessions.ZSessionParams,
    response: sessions.ZSessionsEnded,
  },
  endOtherSessions: {
    ...routePaths.endOtherSessions,
    summary: 'End every session of the customer but this one',
    response: sessions.ZSessionsEnded,
  },
  endSessionByLink: {
    ...routePaths.endSessionByLink,
    summary: 'End the session a "was this you?" e-mail was sent for, with its link',
    body: sessions.ZEndSessionByLinkRequest,
    response: sessions.ZSessionsEnded,
  },
  userProfile: {
    ...routePaths.userProfile,
    summary: "The signed-in customer's profile",
    params: auth.ZUserProfileParams,
    response: auth.ZUserProfile,
  },
  updateContactData: {
    ...routePaths.updateContactData,
    summary:
      "Change the signed-in customer's telephone, invoice e-mail and postal address; the provider hears of it by webhook",
    body: account.ZContactData,
    response: auth.ZUserProfile,
  },
  requestEmailChange: {
    ...routePaths.requestEmailChange,
    summary:
      'Change the sign-in e-mail: a confirmation link goes to the new address, a notice to the current one',
    body: account.ZEmailChangeRequest,
    response: account.ZEmailChangeStarted,
    status: 202,
  },
  confirmEmailChange: {
    ...routePaths.confirmEmailChange,
    summary: "The new address's link: the sign-in e-mail becomes it (single use, 24 hours)",
    body: account.ZEmailChangeConfirm,
    response: account.ZEmailChangeConfirmed,
  },
  invoices: {
    ...routePaths.invoices,
    summary: 'A page of invoices, newest first',
    body: invoices.ZInvoicesRequest,
    response: invoices.ZInvoicesResponse,
  },
  invoiceSummary: {
    ...routePaths.invoiceSummary,
    summary: 'Pending invoices and pending amount in a range',
    body: invoices.ZInvoiceSummaryRequest,
    response: invoices.ZInvoiceSummaryResponse,
  },
  invoice: {
    ...routePaths.invoice,
    summary: 'One invoice with its lines and instalments',
    body: invoices.ZInvoiceRequest,
    response: invoices.ZInvoiceResponse,
  },
  relatedInvoices: {
    ...routePaths.relatedInvoices,
    summary: 'Previous and next invoice by date',
    body: invoices.ZRelatedInvoicesRequest,
    response: invoices.ZRelatedInvoicesResponse,
  },
  invoicePdf: {
    ...routePaths.invoicePdf,
    summary: 'A short-lived signed URL of the invoice PDF',
    body: invoices.ZInvoicePdfRequest,
    response: invoices.ZInvoicePdfResponse,
  },
  payments: {
    ...routePaths.payments,
    summary: 'A page of instalments (efectos)',
    body: payments.ZPaymentsRequest,
    response: payments.ZPaymentsResponse,
  },
  checkoutPreview: {
    ...routePaths.checkoutPreview,
    summary: 'The amount and instalments a card payment would pay, as the server computes them',
    body: redsys.ZCheckoutPreviewRequest,
    response: redsys.ZCheckoutPreviewResponse,
  },
  balance: {
    ...routePaths.balance,
    summary: 'What the customer owes today, what is overdue, and what one "Pagar" pays',
    response: invoices.ZBalanceResponse,
  },
  initPayment: {
    ...routePaths.initPayment,
    summary: 'Start a card payment through Redsys',
    body: redsys.ZInitPaymentRequest,
    response: redsys.ZInitPaymentResponse,
  },
  paymentStatus: {
    ...routePaths.paymentStatus,
    summary: "A payment attempt's state",
    params: redsys.ZPaymentStatusParams,
    response: redsys.ZPaymentStatusResponse,
  },
  paymentMethods: {
    ...routePaths.paymentMethods,
    summary: "The customer's saved payment methods",
    response: account.ZPaymentMethodsResponse,
  },
  addBankAccount: {
    ...routePaths.addBankAccount,
    summary: 'Add a bank account (unverified until the provider verifies it)',
    body: account.ZAddBankAccountRequest,
    response: account.ZPaymentMethodResponse,
    status: 201,
  },
  addCard: {
    ...routePaths.addCard,
    summary: 'Save a card through a Redsys tokenisation (no card data reaches this server)',
    body: account.ZAddCardRequest,
    response: redsys.ZInitPaymentResponse,
  },
  updatePaymentMethod: {
    ...routePaths.updatePaymentMethod,
    summary: "Edit a method's alias or a bank account's holder",
    params: account.ZPaymentMethodParams,
    body: account.ZUpdatePaymentMethodRequest,
    response: account.ZPaymentMethodResponse,
  },
  deletePaymentMethod: {
    ...routePaths.deletePaymentMethod,
    summary: 'Delete a saved method (not the main one, nor one with a pending request)',
    params: account.ZPaymentMethodParams,
    response: account.ZCountResponse,
  },
  requestMainMethod: {
    ...routePaths.requestMainMethod,
    summary: 'Ask the provider to make this the main payment method',
    params: account.ZPaymentMethodParams,
    response: account.ZRequestResponse,
  },
  requestVerification: {
    ...routePaths.requestVerification,
    summary: 'Ask the provider to verify (activate) a bank account',
    params: account.ZPaymentMethodParams,
    response: account.ZRequestResponse,
  },
  signBankAccountMandate: {
    ...routePaths.signBankAccountMandate,
    summary:
      'Sign the SEPA mandate of a bank account saved without one (409 when it has an active mandate)',
    params: account.ZPaymentMethodParams,
    body: account.ZSignBankAccountMandateRequest,
    response: account.ZPaymentMethodResponse,
    status: 201,
  },
  bankTransferInfo: {
    ...routePaths.bankTransferInfo,
    summary: "The tenant's account for bank transfers and the customer's reference",
    response: account.ZBankTransferInfo,
  },
  notifications: {
    ...routePaths.notifications,
    summary: 'A page of notifications, newest first',
    body: account.ZNotificationsRequest,
    response: account.ZNotificationsResponse,
  },
  unreadNotifications: {
    ...routePaths.unreadNotifications,
    summary: 'How many notifications are unread (the header bell)',
    response: account.ZUnreadCountResponse,
  },
  readNotifications: {
    ...routePaths.readNotifications,
    summary: 'Mark notifications read',
    body: account.ZNotificationIdsRequest,
    response: account.ZCountResponse,
  },
  deleteNotifications: {
    ...routePaths.deleteNotifications,
    summary: 'Delete notifications',
    body: account.ZNotificationIdsRequest,
    response: account.ZCountResponse,
  },
  contact: {
    ...routePaths.contact,
    summary: "Send a message to the organisation's mailbox",
    body: account.ZContactRequest,
    response: account.ZContactResponse,
    status: 201,
  },
  fiscalDataRequests: {
    ...routePaths.fiscalDataRequests,
    summary:
      "The customer's fiscal data request waiting for the organisation, and the outcome of the last one",
    response: fiscal.ZFiscalDataRequests,
  },
  requestFiscalDataChange: {
    ...routePaths.requestFiscalDataChange,
    summary:
      'Ask the organisation to change the fiscal data (name, tax id, fiscal address); one request waits at a time',
    body: fiscal.ZFiscalDataChangeRequest,
    response: fiscal.ZFiscalDataRequests,
    status: 201,
  },
  withdrawFiscalDataRequest: {
    ...routePaths.withdrawFiscalDataRequest,
    summary: 'Withdraw the fiscal data request that waits for the organisation',
    params: fiscal.ZFiscalDataRequestParams,
    response: fiscal.ZFiscalDataRequests,
  },
  dismissFiscalDataDecision: {
    ...routePaths.dismissFiscalDataDecision,
    summary: 'Hide the outcome of a decided fiscal data request from the profile',
    params: fiscal.ZFiscalDataRequestParams,
    response: fiscal.ZFiscalDataRequests,
  },
  invoiceThreads: {
    ...routePaths.invoiceThreads,
    summary: "The customer's conversations about invoices, with unread ones marked",
    body: invoiceThreads.ZThreadsQuery,
    response: invoiceThreads.ZThreadsResponse,
  },
  openInvoiceThread: {
    ...routePaths.openInvoiceThread,
    summary: 'Ask the organisation about one of your invoices (opens a conversation)',
    body: invoiceThreads.ZOpenThreadRequest,
    response: invoiceThreads.ZThreadResponse,
    status: 201,
  },
  unreadInvoiceThreads: {
    ...routePaths.unreadInvoiceThreads,
    summary: 'How many conversations about invoices are unread (the menu\'s "Mis consultas" badge)',
    response: account.ZUnreadCountResponse,
  },
  invoiceThread: {
    ...routePaths.invoiceThread,
    summary: 'One conversation with its messages (marks it read)',
    params: invoiceThreads.ZThreadParams,
    response: invoiceThreads.ZThreadResponse,
  },
  replyInvoiceThread: {
    ...routePaths.replyInvoiceThread,
    summary: 'Write in an open conversation',
    params: invoiceThreads.ZThreadParams,
    body: invoiceThreads.ZThreadReplyRequest,
    response: invoiceThreads.ZThreadMessageResponse,
    status: 201,
  },
  receipts: {
    ...routePaths.receipts,
    summary: "The customer's completed card payments, each with a receipt",
    response: documents.ZReceiptsResponse,
  },
  receiptLink: {
    ...routePaths.receiptLink,
    summary: 'A short-lived signed URL of the receipt PDF of a completed payment',
    body: documents.ZReceiptLinkRequest,
    response: documents.ZDocumentLinkResponse,
  },
  statementLink: {
    ...routePaths.statementLink,
    summary: 'A short-lived signed URL of the statement of a period (PDF or CSV)',
    body: documents.ZStatementLinkRequest,
    response: documents.ZDocumentLinkResponse,
  },
  invoicesZipLink: {
    ...routePaths.invoicesZipLink,
    summary: 'A short-lived signed URL of several invoices as one ZIP (a selection or a period)',
    body: documents.ZInvoicesZipRequest,
    response: documents.ZInvoicesZipResponse,
  },
  autoPay: {
    ...routePaths.autoPay,
    summary:
      'Auto-pay: whether the tenant offers it, which saved card pays and the instalments it will pay',
    response: autoPay.ZAutoPayResponse,
  },
  setAutoPay: {
    ...routePaths.setAutoPay,
    summary:
      'Turn auto-pay on with this saved card (off on the others), or off; stops future charges at once',
    params: autoPay.ZAutoPayParams,
    body: autoPay.ZSetAutoPayRequest,
    response: autoPay.ZAutoPayResponse,
  },
  sepaMandates: {
    ...routePaths.sepaMandates,
    summary:
      "The customer's SEPA direct-debit mandates, and the creditor they are signed for (null: none can be signed)",
    response: sepa.ZSepaMandatesResponse,
  },
  sepaMandatePdf: {
    ...routePaths.sepaMandatePdf,
    summary: 'A short-lived signed URL of the mandate PDF',
    params: sepa.ZSepaMandateParams,
    body: sepa.ZSepaMandatePdfRequest,
    response: sepa.ZSepaMandatePdfResponse,
  },
} as const satisfies Record<TRouteName, TRouteDef>;

export type TRoutes = typeof routes;
