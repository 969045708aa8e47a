import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { MainErrorFallback } from '@/components/errors/main-error-fallback';
import type { RouteHandle } from '@/components/layouts/main-layout';
import { getAccessToken } from '@/lib/auth-store';
import { type LazyNamespace, loadNamespace } from '@/lib/i18n';
import { requireSignedIn, restoreSessionLoader, unknownPathLoader } from '@/lib/route-guards';
import { onSessionEnd, restoreSession } from '@/lib/session';
import { AppSpinner } from './app-spinner';
import { unknownPathRouteId } from './route-ids';
import { AppLayoutRoute, PublicLayoutRoute, SignedInRoute } from './routes/layouts';
import { RootRoute } from './routes/root';

const errorRoutes = () => import('./routes/errors');

/**
 * A screen's code and its translations (lazy namespaces, lib/i18n.ts) fetched together, so it never
 * shows before its texts.
 */
const withTexts =
  <T,>(namespace: LazyNamespace, load: () => Promise<T>) =>
  async (): Promise<T> => {
    const [module] = await Promise.all([load(), loadNamespace(namespace)]);
    return module;
  };

/** Spec §2 "Route table". Screens are lazy chunks; later issues add theirs here. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    // Spec §4: the session is restored once per page load, behind the full-screen spinner.
    loader: restoreSessionLoader,
    shouldRevalidate: () => false,
    Component: RootRoute,
    HydrateFallback: AppSpinner,
    ErrorBoundary: MainErrorFallback,
    children: [
      {
        index: true,
        loader: async () => {
          await restoreSession();
          return redirect(getAccessToken() ? paths.invoices : paths.login);
        },
      },
      {
        Component: PublicLayoutRoute,
        children: [
          { path: paths.login, lazy: () => import('./routes/login') },
          { path: paths.recoverPassword, lazy: () => import('./routes/recover-password') },
          { path: paths.resetPassword, lazy: () => import('./routes/reset-password') },
          { path: paths.authCallback.pattern, lazy: () => import('./routes/auth-callback') },
          {
            path: paths.loginLink,
            lazy: withTexts('sessions', () => import('./routes/login-link')),
          },
          {
            path: paths.verifySignIn,
            lazy: withTexts('sessions', () => import('./routes/verify-sign-in')),
          },
          {
            path: paths.signInLink,
            lazy: withTexts('sessions', () => import('./routes/sign-in-link')),
          },
          {
            path: paths.endSessionLink,
            lazy: withTexts('sessions', () => import('./routes/end-session-link')),
          },
          {
            path: paths.confirmEmail,
            lazy: withTexts('sessions', () => import('./routes/confirm-email')),
          },
        ],
      },
      {
        Component: AppLayoutRoute,
        children: [
          {
            path: paths.errorGeneral,
            lazy: async () => ({ Component: (await errorRoutes()).GeneralErrorRoute }),
          },
          {
            path: paths.errorNotFound,
            lazy: async () => ({ Component: (await errorRoutes()).NotFoundRoute }),
          },
          {
            path: paths.errorAccessDenied,
            lazy: async () => ({ Component: (await errorRoutes()).AccessDeniedRoute }),
          },
          {
            path: paths.unauthorized,
            lazy: async () => ({ Component: (await errorRoutes()).AccessDeniedRoute }),
          },
          // Legal pages (spec §2 "Legal pages"): readable signed in or not.
          { path: paths.privacy, lazy: () => import('./routes/legal-privacy') },
          { path: paths.security, lazy: () => import('./routes/legal-security') },
          { path: paths.cookies, lazy: () => import('./routes/legal-cookies') },
          { path: paths.accessibility, lazy: () => import('./routes/legal-accessibility') },
          {
            // Spec §6 sent a visitor from here to /unauthorized ("Acceso denegado"); a link from
            // an e-mail should ask to sign in instead (finding #15): /login, and back here after.
            loader: requireSignedIn,
            lazy: () => import('./routes/server-data'),
            children: [
              {
                path: paths.paymentMethods,
                lazy: withTexts('payment-methods', () => import('./routes/payment-methods')),
              },
            ],
          },
          {
            // Spec §6: every screen in here needs an access token (else /login, remembering the
            // screen); losing the session while on one (401, logout in another tab) leaves it too.
            id: 'signed-in',
            loader: requireSignedIn,
            Component: SignedInRoute,
            children: [
              { path: paths.myActivity, lazy: () => import('./routes/my-activity') },
              {
                path: paths.changePassword,
                handle: { backTo: paths.userProfile } satisfies RouteHandle,
                lazy: () => import('./routes/change-password'),
              },
              {
                path: paths.changeEmail,
                handle: { backTo: paths.userProfile } satisfies RouteHandle,
                lazy: withTexts('sessions', () => import('./routes/change-email')),
              },
              {
                // Screens of server data (invoices, payments, home): react-query's provider comes
                // with them, so the sign-in screens never download it.
                lazy: () => import('./routes/server-data'),
                children: [
                  { path: paths.home, lazy: withTexts('invoices', () => import('./routes/home')) },
                  {
                    path: paths.userProfile,
                    lazy: withTexts('fiscal-data', () => import('./routes/user-profile')),
                  },
                  {
                    path: paths.contactData,
                    handle: { backTo: paths.userProfile } satisfies RouteHandle,
                    lazy: withTexts('profile', () => import('./routes/contact-data')),
                  },
                  {
                    path: paths.fiscalData,
                    handle: { backTo: paths.userProfile } satisfies RouteHandle,
                    lazy: withTexts('fiscal-data', () => import('./routes/fiscal-data')),
                  },
                  {
                    path: paths.passkeys,
                    handle: { backTo: paths.userProfile } satisfies RouteHandle,
                    lazy: withTexts('sessions', () => import('./routes/passkeys')),
                  },
                  {
                    path: paths.twoFactor,
                    handle: { backTo: paths.userProfile } satisfies RouteHandle,
                    lazy: withTexts('sessions', () => import('./routes/two-factor')),
                  },
                  {
                    path: paths.devices,
                    handle: { backTo: paths.userProfile } satisfies RouteHandle,
                    lazy: withTexts('sessions', () => import('./routes/devices')),
                  },
                  ...[paths.invoices, paths.invoicesAlias].map((path) => ({
                    path,
                    handle: { backTo: paths.home } satisfies RouteHandle,
                    lazy: withTexts('invoices', () => import('./routes/invoices')),
                  })),
                  {
                    path: paths.invoiceDetail.pattern,
                    handle: { backTo: paths.invoices } satisfies RouteHandle,
                    lazy: withTexts('invoices', async () => {
                      const [route] = await Promise.all([
                        import('./routes/invoice-detail'),
                        loadNamespace('threads'),
                      ]);
                      return route;
                    }),
                  },
                  ...[paths.payments, paths.paymentsAlias].map((path) => ({
                    path,
                    handle: { backTo: paths.home } satisfies RouteHandle,
                    lazy: withTexts('invoices', () => import('./routes/payments')),
                  })),
                  {
                    path: paths.documents,
                    handle: { backTo: paths.home } satisfies RouteHandle,
                    lazy: withTexts('invoices', () => import('./routes/documents')),
                  },
                  // Payment methods (spec §2): add, view one, the provider's bank data.
                  ...(
                    [
                      [paths.addCard, () => import('./routes/add-card')],
                      [paths.addBankAccount, () => import('./routes/add-bank-account')],
                      [paths.addBankTransfer, () => import('./routes/add-bank-transfer')],
                      [paths.creditCard, () => import('./routes/credit-card')],
                      [paths.bankAccount, () => import('./routes/bank-account')],
                      [paths.signMandate, () => import('./routes/sign-mandate')],
                      [paths.bankData, () => import('./routes/bank-data')],
                    ] as const
                  ).map(([path, lazy]) => ({
                    path,
                    handle: { backTo: paths.paymentMethods } satisfies RouteHandle,
                    lazy: withTexts('payment-methods', lazy),
                  })),
                  {
                    path: paths.notifications,
                    lazy: withTexts('notifications', () => import('./routes/notifications')),
                  },
                  {
                    path: paths.contact,
                    lazy: withTexts('contact', async () => {
                      const [route] = await Promise.all([
                        import('./routes/contact'),
                        loadNamespace('threads'),
                      ]);
                      return route;
                    }),
                  },
                  // Issue 23, item 7: the customer's conversations about invoices.
                  {
                    path: paths.invoiceThreads,
                    lazy: withTexts('threads', () => import('./routes/invoice-threads')),
                  },
                  {
                    path: paths.invoiceThread.pattern,
                    handle: { backTo: paths.invoiceThreads } satisfies RouteHandle,
                    lazy: withTexts('threads', () => import('./routes/invoice-thread')),
                  },
                  // Card payments (spec §2): the confirmation, and the result where the gateway
                  // sends the browser back (its back link is in the screen: it depends on the query).
                  {
                    path: paths.paymentCheckin,
                    handle: { hideBottomBar: true } satisfies RouteHandle,
                    lazy: withTexts('checkout', () => import('./routes/payment-checkin')),
                  },
                  ...[paths.paymentCheckout, paths.paymentSuccess, paths.paymentError].map(
                    (path) => ({
                      path,
                      lazy: withTexts('checkout', () => import('./routes/payment-result')),
                    }),
                  ),
                ],
              },
            ],
          },
          {
            // PRODUCT.md "Screens": an unknown path signed in is the not-found screen (it used to
            // fall to /login, which sent a signed-in customer silently to the last screen);
            // signed out it goes to /login as the spec says.
            id: unknownPathRouteId,
            path: '*',
            loader: unknownPathLoader,
            lazy: async () => ({ Component: (await errorRoutes()).NotFoundRoute }),
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // Spec §4: a 401 or a refused refresh clears the auth (lib/session.ts) and goes to /login.
  onSessionEnd(() => void router.navigate(paths.login, { replace: true }));
  return router;
}
