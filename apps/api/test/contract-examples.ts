import { routes, type TRouteName } from '@portal/contract';

const someId = '00000000-0000-4000-8000-000000000000';
const range = { datefrom: '20240101', dateto: '20241231' };

/**
 * One valid request of every call of the contract (each parses with the call's own schemas; the
 * fuzz tests check it): what the bad-input tests mutate, and what the 401 tests send so that the
 * answer is about the token, not the body. Ids name nothing.
 */
export const validRequests: Record<TRouteName, { params?: Record<string, string>; body?: object }> =
  {
    visualConfig: {},
    login: { body: { email: 'nobody@demo.test', password: 'Wrong1234!' } },
    refreshToken: {},
    logout: {},
    forgotPassword: { body: { email: 'nobody@demo.test' } },
    resetPassword: {
      body: {
        token: 'not-a-token',
        email: 'nobody@demo.test',
        password: 'Buena-clave-2026',
        password_confirmation: 'Buena-clave-2026',
      },
    },
    signInCallback: { params: { provider: 'google' }, body: { code: 'c', state: 's' } },
    userProfile: { params: { id: someId } },
    invoices: { body: { ...range, page: '1', pending: true } },
    invoiceSummary: { body: range },
    invoice: { body: { invoice_id: 'F-0' } },
    relatedInvoices: { body: { invoice_id: 'F-0' } },
    invoicePdf: { body: { invoice_id: 'F-0', language: 'es' } },
    payments: { body: { ...range, page: '1', pending: true, order: 'asc' } },
    initPayment: { body: { amount: 12.5, payment_ids: [someId], language: 'es' } },
    paymentStatus: { params: { id: someId } },
    paymentMethods: {},
    addBankAccount: {
      body: { iban: 'ES91 2100 0418 4502 0005 1332', holder: 'Titular', nif: '12345678Z' },
    },
    addCard: { body: { alias: 'Tarjeta' } },
    updatePaymentMethod: { params: { id: someId }, body: { alias: 'Alias' } },
    deletePaymentMethod: { params: { id: someId } },
    requestMainMethod: { params: { id: someId } },
    requestVerification: { params: { id: someId } },
    bankTransferInfo: {},
    notifications: { body: { filter: 'unread', page: '1' } },
    unreadNotifications: {},
    readNotifications: { body: { ids: [someId] } },
    deleteNotifications: { body: { ids: [someId] } },
    contact: {
      body: {
        name: 'Laura',
        company: 'Empresa',
        subject: 'Consulta',
        message: 'Hola',
        acceptPrivacy: true,
      },
    },
  };

/** The URL of a call under a tenant, its `:params` filled. */
export function urlOf(tenant: string, name: TRouteName, params = validRequests[name].params) {
  const path = routes[name].path.replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(params?.[key] ?? ''),
  );
  return `/${tenant}/api/1.0${path}`;
}
