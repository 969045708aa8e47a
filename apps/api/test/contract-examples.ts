import { adminRoutes, routes, type TAdminRouteName, type TRouteName } from '@portal/contract';

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
    secondFactorSignIn: { body: { challenge: 'not-a-challenge', code: '123456' } },
    secondFactorEnrol: { body: { challenge: 'not-a-challenge' } },
    secondFactor: {},
    secondFactorSetup: { body: { current_password: 'not-the-password' } },
    secondFactorConfirm: { body: { code: '123456' } },
    secondFactorDisable: { body: { code: '123456' } },
    passkeySignInOptions: {},
    passkeySignIn: {
      body: {
        credential: {
          id: 'x',
          rawId: 'x',
          type: 'public-key',
          response: {},
          clientExtensionResults: {},
        },
      },
    },
    passkeys: {},
    passkeyRegisterOptions: { body: { current_password: 'not-the-password' } },
    passkeyRegister: {
      body: {
        credential: {
          id: 'x',
          rawId: 'x',
          type: 'public-key',
          response: {},
          clientExtensionResults: {},
        },
      },
    },
    renamePasskey: { params: { id: someId }, body: { name: 'Mi móvil' } },
    deletePasskey: { params: { id: someId } },
    signInLink: { body: { email: 'nobody@demo.test' } },
    redeemSignInLink: { body: { token: 'not-a-token' } },
    changePassword: {
      body: {
        current_password: 'not-the-password',
        password: 'Buena-clave-2026',
        password_confirmation: 'Buena-clave-2026',
      },
    },
    signInCallback: { params: { provider: 'google' }, body: { code: 'c', state: 's' } },
    sessions: {},
    endSession: { params: { id: someId } },
    endOtherSessions: {},
    endSessionByLink: { body: { token: 'not-a-token' } },
    userProfile: { params: { id: someId } },
    updateContactData: {
      body: {
        phone: '+34 600 123 456',
        invoice_email: 'facturas@ejemplo.es',
        shipping_address: 'Calle Mayor 1',
        shipping_cp: '28001',
        shipping_city: 'Madrid',
        shipping_province: 'Madrid',
        shipping_country: 'España',
      },
    },
    requestEmailChange: {
      body: { email: 'nuevo@demo.test', current_password: 'not-the-password' },
    },
    confirmEmailChange: { body: { token: 'not-a-token' } },
    invoices: { body: { ...range, page: '1', pending: true } },
    invoiceSummary: { body: range },
    invoice: { body: { invoice_id: 'F-0' } },
    relatedInvoices: { body: { invoice_id: 'F-0', year: 2024 } },
    invoicePdf: { body: { invoice_id: 'F-0', language: 'es' } },
    payments: { body: { ...range, page: '1', pending: true, order: 'asc' } },
    checkoutPreview: { body: { payment_ids: [someId] } },
    balance: {},
    initPayment: {
      body: {
        amount: 12.5,
        payment_ids: [someId],
        language: 'es',
        description: 'Cuota',
        success_url: 'https://example.com/ok',
        error_url: 'https://example.com/ko',
        user_id: 'u',
        card_id: someId,
      },
    },
    paymentStatus: { params: { id: someId } },
    paymentMethods: {},
    addBankAccount: {
      body: {
        iban: 'ES91 2100 0418 4502 0005 1332',
        holder: 'Titular',
        nif: '12345678Z',
        entity: 'Banco',
        alias: 'Cuenta',
        mandate_accepted: true,
        mandate_language: 'es',
      },
    },
    addCard: { body: { alias: 'Tarjeta', language: 'es' } },
    updatePaymentMethod: { params: { id: someId }, body: { alias: 'Alias', holder: 'Titular' } },
    deletePaymentMethod: { params: { id: someId } },
    requestMainMethod: { params: { id: someId } },
    requestVerification: { params: { id: someId } },
    signBankAccountMandate: {
      params: { id: someId },
      body: { mandate_accepted: true, mandate_language: 'es' },
    },
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
    fiscalDataRequests: {},
    requestFiscalDataChange: {
      body: {
        invoice_name: 'Soler Vidal Consultoria SL',
        nif: 'B12345674',
        address: 'Carrer Major 12',
        city: 'Girona',
        country: 'España',
        comment: 'Facturad a la sociedad',
      },
    },
    withdrawFiscalDataRequest: { params: { id: someId } },
    dismissFiscalDataDecision: { params: { id: someId } },
    invoiceThreads: { body: { page: '1' } },
    openInvoiceThread: { body: { invoice_id: 'FV-NOBODY', message: '¿Por qué sube la cuota?' } },
    unreadInvoiceThreads: {},
    invoiceThread: { params: { id: someId } },
    replyInvoiceThread: { params: { id: someId }, body: { message: 'Gracias' } },
    receipts: {},
    receiptLink: { body: { payment_id: someId, language: 'es' } },
    statementLink: { body: { ...range, format: 'csv', language: 'es' } },
    invoicesZipLink: { body: { invoice_ids: ['F-0'], language: 'es' } },
    autoPay: {},
    setAutoPay: { params: { id: someId }, body: { enabled: true } },
    sepaMandates: {},
    sepaMandatePdf: { params: { id: someId }, body: { language: 'es' } },
  };

/** The URL of a call under a tenant, its `:params` filled. */
export function urlOf(tenant: string, name: TRouteName, params = validRequests[name].params) {
  const path = routes[name].path.replace(/:(\w+)/g, (_, key: string) =>
    encodeAny(params?.[key] ?? ''),
  );
  return `/${tenant}/api/1.0${path}`;
}

/**
 * One valid request of every provider-integration call (`adminRoutes`): what the bad-input tests
 * poison field by field. Codes and ids name nothing of the seed, so a valid one would be refused
 * later (unknown customer, no such request) but never for its shape.
 */
export const validAdminRequests: Record<
  TAdminRouteName,
  { params?: Record<string, string>; body?: object; query?: Record<string, string> }
> = {
  ingestCustomers: {
    body: {
      customers: [
        {
          code: 'C-FUZZ-1',
          email: 'fuzz@demo.test',
          name: 'Marta',
          last_name: 'Soler',
          nif: '12345678Z',
          address: 'Carrer Major 12',
          city: 'Girona',
          country: 'España',
          shipping_cp: '17001',
          shipping_province: 'Girona',
          shipping_city: 'Girona',
          shipping_country: 'España',
          shipping_address: 'Carrer Major 12',
          phone: '+34 600 123 456',
          contact_name: 'Marta',
          invoice_email: 'factures@demo.test',
          invoice_name: 'Marta Soler',
          payment_method_label: 'Domiciliación',
          entry_date: '2024-09-01',
          language: 'ca',
          send_invitation: false,
        },
      ],
    },
  },
  inviteCustomers: { body: { codes: ['C-NOBODY'] } },
  ingestInvoices: {
    body: {
      invoices: [
        {
          id: 'FV-FUZZ-1',
          customer_code: 'C-NOBODY',
          invoice_date: '2026-03-01',
          base_cents: 5000,
          vat_cents: 1050,
          total_cents: 6050,
          lines: [
            {
              line_no: 1,
              person: 'Pau',
              concept: 'Cuota',
              quota: 'Marzo',
              quantity: 1,
              unit_price_cents: 5000,
              vat_rate: 21,
            },
          ],
          instalments: [{ seq: 1, due_date: '2026-03-05', amount_cents: 6050, method: 'Recibo' }],
        },
      ],
    },
  },
  changeInstalmentStatus: {
    body: {
      changes: [
        { invoice_id: 'FV-NOBODY', seq: 1, status: 'paid', paid_date: '2026-03-05' },
        {
          invoice_id: 'FV-NOBODY',
          seq: 2,
          status: 'returned',
          return_reason_code: 'AM04',
          return_fee_cents: 350,
        },
      ],
    },
  },
  ingestNotifications: {
    body: {
      notifications: [
        {
          id: 'N-FUZZ-1',
          customer_code: 'C-NOBODY',
          type: 'info',
          title: 'Aviso',
          message: 'Mensaje',
          link: '/invoices',
        },
      ],
    },
  },
  reviewPaymentMethodRequest: { params: { id: someId }, body: { status: 'approved' } },
  listPaymentMethodRequests: { query: { status: 'pending', limit: '20', before: someId } },
  listContactChanges: { query: { limit: '20', before: someId } },
  getWebhook: {},
  putWebhook: { body: { url: 'https://erp.example.com/portal/webhooks', enabled: false } },
  rotateWebhookSecret: {},
  deleteWebhook: {},
  webhookEvents: { query: { status: 'failed', limit: '20', before: someId } },
  redeliverWebhookEvent: { params: { id: someId } },
  testWebhook: {},
  getSignInMethods: {},
  putSignInMethods: { body: { link: false } },
  listFiscalDataRequests: { query: { status: 'pending', limit: '20', before: someId } },
  decideFiscalDataRequest: {
    params: { id: someId },
    body: { decision: 'rejected', reason: 'El CIF no corresponde a la sociedad' },
  },
  reportReturnedDebits: {
    body: {
      returns: [
        {
          invoice_id: 'FV-1',
          seq: 1,
          return_date: '2026-03-09',
          reason_code: 'AM04',
          fee_cents: 350,
        },
      ],
    },
  },
  listInvoiceThreads: { query: { status: 'open', unread: 'true', limit: '20', before: someId } },
  listInvoiceThreadMessages: { query: { limit: '50', since: someId, thread_id: someId } },
  answerInvoiceThread: {
    params: { id: someId },
    body: { message: 'La cuota incluye la matrícula.', author_name: 'Laura' },
  },
  readInvoiceThread: { params: { id: someId } },
  closeInvoiceThread: { params: { id: someId } },
  listSepaMandates: { query: { limit: '20', before: someId, status: 'active' } },
};

/** The URL of a provider-integration call under a tenant, its `:params` filled and its query. */
export function adminUrlOf(
  tenant: string,
  name: TAdminRouteName,
  params = validAdminRequests[name].params,
  query = validAdminRequests[name].query,
) {
  const path = adminRoutes[name].path.replace(/:(\w+)/g, (_, key: string) =>
    encodeAny(params?.[key] ?? ''),
  );
  const search = query
    ? `?${Object.entries(query)
        .map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`)
        .join('&')}`
    : '';
  return `/${tenant}/api/1.0${path}${search}`;
}

/**
 * `encodeURIComponent`, except that a lone surrogate (which it refuses) is sent as the three bytes
 * a careless encoder would produce (WTF-8): what an attacker's client can put on the wire.
 */
export function encodeAny(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff)
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    else out += encodeURIComponent(char);
  }
  return out;
}
