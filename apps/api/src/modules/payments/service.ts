import {
  ErrorCode,
  FieldError,
  type TInitPaymentRequest,
  type TInitPaymentResponse,
  type TPaymentStatusResponse,
} from '@portal/contract';
import {
  amountToRedsys,
  createPaymentRequest,
  isAuthorised,
  isSameTerminal,
  isSignatureVersion,
  newOrderNumber,
  readNotification,
  type SignatureVersion,
  type UntrustedSignedMessage,
} from '@portal/redsys';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, FieldValidationError, notFound } from '../../lib/app-error.ts';
import { centsToAmount, todayIso } from '../../lib/dates.ts';
import type { Language } from '../mail/messages.ts';
import { formatEuros, paymentMessages, redsysLanguage } from './messages.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createPaymentRepository, type AttemptRow, type TenantGatewayRow } from './repository.ts';
import { checkCustomerLimits } from '../payment-methods/service.ts';

export const redsysHosts = {
  test: 'https://sis-t.redsys.es:25443',
  production: 'https://sis.redsys.es',
} as const;

export type PaymentServiceDeps = {
  db: Database;
  /** Opens the tenant's Redsys key, sealed at rest. */
  secretBox: SecretBox;
  /** Origin of the local Redsys simulator (tenants in the 'simulator' environment). */
  simulatorUrl: string;
  /** Base URL Redsys (or the simulator) posts notifications to; the tenant is in the path. */
  notificationBaseUrl: string;
  /** Sends the receipt after a payment; failures are logged by the caller, never undo a payment. */
  onPaid: (input: { tenantId: string; attempt: AttemptRow; invoices: string[] }) => Promise<void>;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
};

export type NotificationOutcome =
  | 'paid'
  | 'failed'
  | 'duplicate'
  | 'bad_signature'
  | 'unknown_order'
  | 'mismatch'
  | 'not_configured';

const toCents = (amount: number): number => Math.round(amount * 100);

export function gatewayOrigin(
  environment: TenantGatewayRow['redsys_environment'],
  simulatorUrl: string,
): string {
  return environment === 'simulator' ? simulatorUrl : redsysHosts[environment];
}

function allowedVersions(gateway: TenantGatewayRow): SignatureVersion[] {
  return gateway.redsys_signature_versions.filter(isSignatureVersion);
}

export function createPaymentService(deps: PaymentServiceDeps) {
  const { db } = deps;
  const repository = createPaymentRepository(deps.secretBox);

  /**
   * Saves the card a notification tokenised: the Redsys reference, brand, masked number and
   * expiry. Never a full card number: a masked number without asterisks is dropped.
   */
  async function saveCard(
    sql: Sql,
    attempt: AttemptRow,
    params: Record<string, string>,
  ): Promise<string | null> {
    const reference = params.Ds_Merchant_Identifier;
    if (!reference || reference === 'REQUIRED') return null;
    const contact = await repository.customerContact(sql, attempt.customer_id);
    const expiry =
      params.Ds_ExpiryDate && /^\d{4}$/.test(params.Ds_ExpiryDate)
        ? `${params.Ds_ExpiryDate.slice(2, 4)}${params.Ds_ExpiryDate.slice(0, 2)}` // yymm -> mmyy
        : null;
    const number = params.Ds_Card_Number ?? '';
    const masked = /^[0-9*]{12,19}$/.test(number) && /\*{4,}/.test(number) ? number : null;
    const brand =
      params.Ds_Card_Brand === '1' ? 'VISA' : params.Ds_Card_Brand === '2' ? 'MASTERCARD' : null;
    return repository.insertCard(sql, {
      customerId: attempt.customer_id,
      alias: attempt.card_alias,
      holder: contact?.name ?? '',
      brand,
      masked,
      expiry,
      reference: reference.slice(0, 64),
    });
  }

  /** The outcome of a card tokenisation (no money moves): the card is saved, or nothing. */
  async function saveVerifiedCard(
    sql: Sql,
    attempt: AttemptRow,
    params: Record<string, string>,
    response: string,
  ) {
    const ok = isAuthorised(response);
    const methodId = ok ? await saveCard(sql, attempt, params) : null;
    await repository.settleAttempt(sql, attempt.id, {
      status: ok && methodId ? 'paid' : 'failed',
      dsResponse: response || null,
      authorisation: params.Ds_AuthorisationCode?.slice(0, 12) ?? null,
      methodId,
    });
    return { outcome: ok && methodId ? ('paid' as const) : ('failed' as const), attempt };
  }

  /** Applies a verified notification to its attempt, once: the row lock serialises duplicates. */
  async function settle(
    sql: Sql,
    tenantId: string,
    params: Record<string, string>,
    gateway: TenantGatewayRow,
  ): Promise<{ outcome: NotificationOutcome; attempt?: AttemptRow; invoices?: string[] }> {
    const order = params.Ds_Order ?? '';
    const attempt = await repository.findAttemptForUpdate(
      sql,
      gateway.redsys_merchant_code ?? '',
      order,
    );
    if (!attempt) return { outcome: 'unknown_order' };
    const matches =
      params.Ds_MerchantCode === attempt.merchant_code &&
      isSameTerminal(params.Ds_Terminal ?? '', attempt.terminal) &&
      params.Ds_Amount === String(attempt.amount_cents) &&
      params.Ds_Currency === attempt.currency &&
      (params.Ds_TransactionType === undefined ||
        params.Ds_TransactionType === (attempt.kind === 'card_verification' ? '7' : '0'));
    if (!matches) return { outcome: 'mismatch', attempt };
    // A settled attempt never changes again (a denial after an authorisation, a replay...).
    if (attempt.status !== 'pending') return { outcome: 'duplicate', attempt };

    const response = params.Ds_Response ?? '';
    const language = (attempt.language in paymentMessages ? attempt.language : 'es') as Language;
    const m = paymentMessages[language];
    if (attempt.kind === 'card_verification')
      return saveVerifiedCard(sql, attempt, params, response);
    if (!isAuthorised(response)) {
      await repository.settleAttempt(sql, attempt.id, {
        status: 'failed',
        dsResponse: response || null,
        authorisation: null,
      });
      await repository.insertNotification(sql, {
        customerId: attempt.customer_id,
        type: 'payment_failed',
        title: m.failedTitle,
        message: m.failedMessage(formatEuros(attempt.amount_cents)),
        link: '/mis-pagos',
      });
      return { outcome: 'failed', attempt };
    }

    const paid = await repository.payInstalments(sql, attempt.id, todayIso());
    const items = await sql.query<{ invoice_id: string }>(
      `SELECT DISTINCT e.invoice_id FROM payment_attempt_items i
         JOIN instalments e ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
        WHERE i.tenant_id = current_setting('app.tenant_id') AND i.attempt_id = $1 ORDER BY 1`,
      [attempt.id],
    );
    const invoices = items.map((r) => r.invoice_id);
    if (paid < invoices.length) {
      deps.log.warn(
        { tenantId, order, paid },
        'ALERT: card payment for instalments no longer unpaid: refund needed',
      );
    }
    const methodId = attempt.save_card ? await saveCard(sql, attempt, params) : null;
    await repository.settleAttempt(sql, attempt.id, {
      status: 'paid',
      dsResponse: response,
      authorisation: params.Ds_AuthorisationCode?.slice(0, 12) ?? null,
      methodId,
    });
    await repository.insertNotification(sql, {
      customerId: attempt.customer_id,
      type: 'payment_succeeded',
      title: m.paidTitle,
      message: m.paidMessage(formatEuros(attempt.amount_cents), invoices.join(', ')),
      link: invoices.length === 1 ? `/invoice-detail/${invoices[0]}` : '/mis-pagos',
    });
    return { outcome: 'paid', attempt, invoices };
  }

  return {
    async initPayment(
      actor: { tenantId: string; customerId: string },
      body: TInitPaymentRequest,
    ): Promise<TInitPaymentResponse> {
      return db.withTenant(actor.tenantId, async (sql) => {
        const gateway = await repository.gateway(sql);
        const versions = gateway ? allowedVersions(gateway) : [];
        const version = versions[0];
        if (
          !gateway?.redsys_merchant_code ||
          !gateway.redsys_terminal ||
          !gateway.redsys_secret_key ||
          !version
        ) {
          throw new AppError(503, ErrorCode.paymentUnavailable, 'Card payments are not configured');
        }

        // What is being paid: chosen instalments, or every unpaid instalment of some invoices.
        const ids = [
          ...new Set([...(body.payment_ids ?? []), ...(body.payment_id ? [body.payment_id] : [])]),
        ];
        const invoiceIds = [
          ...new Set([
            ...(body.multiple_invoices ?? []),
            ...(body.invoice_id ? [body.invoice_id] : []),
          ]),
        ];
        if (ids.length === 0 && invoiceIds.length === 0) {
          throw new FieldValidationError({ invoice_id: [FieldError.required] });
        }
        let items;
        if (ids.length > 0) {
          items = await repository.lockInstalments(sql, actor.customerId, { ids });
          if (items.length !== ids.length) throw notFound('Payment');
          if (items.some((i) => i.status !== 'pending' && i.status !== 'returned')) {
            throw new FieldValidationError({ payment_ids: [FieldError.notPayable] });
          }
        } else {
          const owned = await repository.ownedInvoices(sql, actor.customerId, invoiceIds);
          if (owned.length !== invoiceIds.length) throw notFound('Invoice');
          items = await repository.lockInstalments(sql, actor.customerId, { invoices: invoiceIds });
          const covered = new Set(items.map((i) => i.invoice_id));
          if (invoiceIds.some((id) => !covered.has(id))) {
            throw new FieldValidationError({ invoice_id: [FieldError.notPayable] });
          }
        }
        const amountCents = items.reduce((sum, i) => sum + i.amount_cents, 0);
        if (toCents(body.amount) !== amountCents) {
          throw new FieldValidationError({ amount: [FieldError.amountMismatch] });
        }

        let reference: string | undefined;
        if (body.card_id) {
          reference = await repository.savedCardReference(sql, actor.customerId, body.card_id);
          if (!reference) throw notFound('Card');
        }
        const language: Language = body.language ?? 'es';
        const saveCard = body.save_card === true && !reference;
        const orderNumber = newOrderNumber();
        const attempt = await repository.insertAttempt(sql, {
          customerId: actor.customerId,
          orderNumber,
          merchantCode: gateway.redsys_merchant_code,
          terminal: gateway.redsys_terminal,
          amountCents,
          saveCard,
          paymentMethodId: null,
          signatureVersion: version,
          language,
        });
        try {
          // One active item per instalment (unique index): a second simultaneous payment fails here,
          // and the whole transaction (this attempt included) rolls back.
          await repository.insertItems(sql, attempt.id, items);
        } catch (error) {
          if ((error as { code?: string }).code === '23505') {
            throw new AppError(
              409,
              ErrorCode.paymentInProgress,
              'A payment of these instalments is in progress',
            );
          }
          throw error;
        }

        const site = gateway.canonical_url.replace(/\/$/, '');
        const invoicesPaid = [...new Set(items.map((i) => i.invoice_id))];
        const params: Record<string, string> = {
          Ds_Merchant_Amount: amountToRedsys(amountCents),
          Ds_Merchant_Order: orderNumber,
          Ds_Merchant_MerchantCode: gateway.redsys_merchant_code,
          Ds_Merchant_Currency: '978',
          Ds_Merchant_TransactionType: '0',
          Ds_Merchant_Terminal: gateway.redsys_terminal,
          Ds_Merchant_MerchantURL: `${deps.notificationBaseUrl}/${actor.tenantId}/api/1.0/redsys/notification`,
          Ds_Merchant_UrlOK: `${site}/payment/success?payment_id=${attempt.id}`,
          Ds_Merchant_UrlKO: `${site}/payment/error?payment_id=${attempt.id}`,
          Ds_Merchant_ConsumerLanguage: redsysLanguage[language],
          Ds_Merchant_MerchantName: gateway.company_name.slice(0, 25),
          Ds_Merchant_ProductDescription: invoicesPaid.join(', ').slice(0, 125),
        };
        if (saveCard) params.Ds_Merchant_Identifier = 'REQUIRED';
        if (reference) params.Ds_Merchant_Identifier = reference;
        if (body.simulate_decline && gateway.redsys_environment === 'simulator') {
          params.Ds_Merchant_MerchantData = 'simulate=decline';
        }
        const signed = createPaymentRequest({ version, secret: gateway.redsys_secret_key, params });
        return {
          success: true,
          payment_id: attempt.id,
          redsys_params: signed,
          url: `${gatewayOrigin(gateway.redsys_environment, deps.simulatorUrl)}/sis/realizarPago`,
          message: 'Payment started',
        };
      });
    },

    /**
     * Saving a card from the payment-methods screen: a Redsys tokenisation (type 7, 0 EUR,
     * Ds_Merchant_Identifier=REQUIRED). The card data is typed on the gateway's page only.
     */
    async addCard(
      actor: { tenantId: string; customerId: string },
      body: { alias?: string | undefined; language?: Language | undefined },
    ): Promise<TInitPaymentResponse> {
      return db.withTenant(actor.tenantId, async (sql) => {
        const gateway = await repository.gateway(sql);
        const version = gateway ? allowedVersions(gateway)[0] : undefined;
        if (
          !gateway?.redsys_merchant_code ||
          !gateway.redsys_terminal ||
          !gateway.redsys_secret_key ||
          !version
        ) {
          throw new AppError(503, ErrorCode.paymentUnavailable, 'Card payments are not configured');
        }
        await checkCustomerLimits(sql, actor.customerId, 'card');
        const language: Language = body.language ?? 'es';
        const orderNumber = newOrderNumber();
        const attempt = await repository.insertAttempt(sql, {
          customerId: actor.customerId,
          orderNumber,
          merchantCode: gateway.redsys_merchant_code,
          terminal: gateway.redsys_terminal,
          amountCents: 0,
          saveCard: true,
          paymentMethodId: null,
          signatureVersion: version,
          language,
          kind: 'card_verification',
          cardAlias: body.alias?.trim() ?? '',
        });
        const site = gateway.canonical_url.replace(/\/$/, '');
        const signed = createPaymentRequest({
          version,
          secret: gateway.redsys_secret_key,
          params: {
            Ds_Merchant_Amount: '0',
            Ds_Merchant_Order: orderNumber,
            Ds_Merchant_MerchantCode: gateway.redsys_merchant_code,
            Ds_Merchant_Currency: '978',
            Ds_Merchant_TransactionType: '7',
            Ds_Merchant_Terminal: gateway.redsys_terminal,
            Ds_Merchant_MerchantURL: `${deps.notificationBaseUrl}/${actor.tenantId}/api/1.0/redsys/notification`,
            Ds_Merchant_UrlOK: `${site}/metodos-de-pago?card_attempt=${attempt.id}`,
            Ds_Merchant_UrlKO: `${site}/metodos-de-pago?card_attempt=${attempt.id}`,
            Ds_Merchant_ConsumerLanguage: redsysLanguage[language],
            Ds_Merchant_MerchantName: gateway.company_name.slice(0, 25),
            Ds_Merchant_Identifier: 'REQUIRED',
          },
        });
        return {
          success: true,
          payment_id: attempt.id,
          redsys_params: signed,
          url: `${gatewayOrigin(gateway.redsys_environment, deps.simulatorUrl)}/sis/realizarPago`,
          message: 'Card tokenisation started',
        };
      });
    },

    /**
     * A server-to-server notification: verified with THIS tenant's key, checked field by field
     * against the attempt, applied once in one transaction. Every notification is stored as
     * received. Answers the outcome for logs and tests; Redsys only needs a 200.
     */
    async handleNotification(
      tenantId: string,
      input: UntrustedSignedMessage,
    ): Promise<NotificationOutcome> {
      const result = await db.withTenant(tenantId, async (sql) => {
        const gateway = await repository.gateway(sql);
        const record = (outcome: NotificationOutcome, attemptId: string | null) =>
          repository.recordNotification(sql, {
            attemptId,
            version: String(input.Ds_SignatureVersion ?? ''),
            parameters: String(input.Ds_MerchantParameters ?? ''),
            signature: String(input.Ds_Signature ?? ''),
            outcome,
          });
        if (!gateway?.redsys_secret_key) {
          await record('not_configured', null);
          return { outcome: 'not_configured' as const };
        }
        const read = readNotification(input, gateway.redsys_secret_key, allowedVersions(gateway));
        if (!read.ok) {
          await record('bad_signature', null);
          return { outcome: 'bad_signature' as const };
        }
        const settled = await settle(sql, tenantId, read.params, gateway);
        await record(settled.outcome, settled.attempt?.id ?? null);
        return settled;
      });
      if (result.outcome === 'mismatch' || result.outcome === 'bad_signature') {
        deps.log.warn({ tenantId, outcome: result.outcome }, 'ALERT: Redsys notification refused');
      }
      if (result.outcome === 'paid' && 'attempt' in result && result.attempt?.kind === 'payment') {
        const { attempt, invoices = [] } = result;
        await deps
          .onPaid({ tenantId, attempt, invoices })
          .catch((error: unknown) =>
            deps.log.error({ err: error, tenantId }, 'payment receipt e-mail failed'),
          );
      }
      return result.outcome;
    },

    async status(
      actor: { tenantId: string; customerId: string },
      id: string,
    ): Promise<TPaymentStatusResponse> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Payment');
      const row = await db.readTenant(actor.tenantId, (sql) =>
        repository.findOwnAttempt(sql, actor.customerId, id),
      );
      if (!row) throw notFound('Payment');
      return {
        payment_id: row.id,
        order_id: row.order_number,
        status: row.status,
        amount: centsToAmount(row.amount_cents),
        invoices: row.invoices,
        card_saved: row.card_saved,
        created_at: row.created_at.toISOString(),
        settled_at: row.settled_at ? row.settled_at.toISOString() : null,
      };
    },

    /** Fails a pending attempt the gateway never received, freeing its instalments. */
    async releaseAttempt(tenantId: string, attemptId: string): Promise<void> {
      await db.withTenant(tenantId, (sql) =>
        repository.settleAttempt(sql, attemptId, {
          status: 'failed',
          dsResponse: null,
          authorisation: null,
        }),
      );
    },

    /** Settles an attempt the gateway's query answered for (the reconciliation job). */
    async settleFromQuery(
      tenantId: string,
      params: Record<string, string>,
    ): Promise<NotificationOutcome> {
      return db.withTenant(tenantId, async (sql) => {
        const gateway = await repository.gateway(sql);
        if (!gateway) return 'not_configured';
        return (await settle(sql, tenantId, params, gateway)).outcome;
      });
    },
  };
}
export type PaymentService = ReturnType<typeof createPaymentService>;
