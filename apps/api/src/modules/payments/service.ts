import {
  apiPrefix,
  ErrorCode,
  FieldError,
  type TCheckinMethod,
  type TCheckoutPreviewRequest,
  type TCheckoutPreviewResponse,
  type TInitPaymentRequest,
  type TInitPaymentResponse,
  type TPaymentStatusResponse,
} from '@portal/contract';
import {
  amountToRedsys,
  createPaymentRequest,
  isAuthorised,
  isBizumProcessed,
  isCustomerCancel,
  isRepeatedOrder,
  PAY_METHODS,
  isSameTerminal,
  isSignatureVersion,
  newOrderNumber,
  readNotification,
  type SignatureVersion,
  type UntrustedSignedMessage,
  decodeMerchantParameters,
} from '@portal/redsys';
import type { Database, Sql, SqlQuery } from '../../db/database.ts';
import { inSavepoint } from '../../db/savepoint.ts';
import { AppError, FieldValidationError, notFound } from '../../lib/app-error.ts';
import { centsToAmount, madridDateTime, todayIso } from '../../lib/dates.ts';
import { chargedMoment, chargedOn } from './paid-date.ts';
import type { Language } from '../mail/messages.ts';
import { gatewayOrigin } from './gateway-origin.ts';
import { redsysLanguage } from './messages.ts';
import { createNotification } from '../notifications/service.ts';
import { webhookEvents } from '../webhooks/events.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { failureOf } from './failure.ts';
import {
  createPaymentRepository,
  type AttemptRow,
  type PayableRow,
  type PayMethod,
  type PreviewRow,
  type TenantGatewayRow,
} from './repository.ts';
import { paymentStatus } from '../invoices/service.ts';
import { checkCustomerLimits, roomForAnotherMethod } from '../payment-methods/service.ts';
import { recordReturnFeesPaid } from '../returned-debits/service.ts';
import { recordAutoPayDecline } from '../auto-pay/declines.ts';
import type { MitChargeInput, MitChargeResult } from './redsys-client.ts';
import { appPaths } from '@portal/contract/app-paths';

export { gatewayOrigin, redsysHosts } from './gateway-origin.ts';

/** Where Redsys posts its notifications, under each tenant's API prefix (routes.ts serves it). */
export const notificationPath = '/redsys/notification';

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
  /**
   * After the commit that recorded a declined auto-pay charge (the customer is notified in that
   * transaction): sends its e-mail now (auto-pay's outbox retries it otherwise).
   */
  onAutoPayDeclined?: (tenantId: string) => Promise<void>;
  /**
   * The app's clock (AppContext.now, decision 021): what "today" is in Madrid for the preview's
   * overdue and the paid date, as on every other screen. The machine's clock when not given.
   */
  now?: () => Date;
};

export type NotificationOutcome =
  | 'paid'
  /** Authorised, and (part of) what it charged was already paid: a refund is recorded. */
  | 'overpaid'
  | 'failed'
  | 'duplicate'
  | 'bad_signature'
  | 'unknown_order'
  | 'mismatch'
  | 'not_configured';

type Settled = {
  outcome: NotificationOutcome;
  attempt?: AttemptRow;
  invoices?: string[];
  /** This settlement recorded an auto-pay charge's decline (its e-mail is due). */
  autoPayDeclined?: boolean;
};

const toCents = (amount: number): number => Math.round(amount * 100);

/**
 * The masked card number as the portal keeps it: the first six digits at most and the last four,
 * asterisks between (`454881******0004`). Redsys may show eight digits of the BIN
 * (`45488120****0004`), which the table refuses (no run of seven digits, so that no full number can
 * ever be stored). Anything that is not a masked number (no run of four asterisks) is dropped.
 */
export function maskedCardNumber(number: string): string | null {
  if (!/^[0-9*]{12,19}$/.test(number) || !/\*{4,}/.test(number)) return null;
  return [...number].map((c, i) => (i < 6 || i >= number.length - 4 ? c : '*')).join('');
}

/**
 * THE amount paying some instalments charges, in cents: each instalment's amount plus the bank
 * fee of its returned direct debit where the tenant charges it. The confirmation shows it, the
 * start checks the customer's amount against it and asks Redsys for it.
 */
export const payableCents = (items: readonly { amount_cents: number; fee_cents: number }[]) =>
  items.reduce((sum, i) => sum + i.amount_cents + i.fee_cents, 0);

function allowedVersions(gateway: TenantGatewayRow): SignatureVersion[] {
  return gateway.redsys_signature_versions.filter(isSignatureVersion);
}

/** A card gateway the portal can sign requests for. */
function isConfigured(gateway: TenantGatewayRow): boolean {
  return Boolean(
    gateway.redsys_merchant_code &&
    gateway.redsys_terminal &&
    gateway.redsys_secret_key &&
    allowedVersions(gateway).length > 0,
  );
}

/** Redsys' Ds_Merchant_PayMethods code of PayPal (a tenant's `redsys-pay-methods` setting). */
const REDSYS_PAYPAL = PAY_METHODS.paypal;
/** Bizum's code (redsys-notes §3): a lowercase `z`, in the same setting. */
const REDSYS_BIZUM = PAY_METHODS.bizum;

/** The stored method of an attempt, as the contract names it. */
const checkinMethodOf: Record<PayMethod, TCheckinMethod> = {
  card: 'credit_card',
  bizum: 'bizum',
  paypal: 'paypal',
};
/** The instalment's collection method once an attempt pays it (served as written, PDF too). */
const instalmentMethodText = { card: 'Tarjeta', bizum: 'Bizum', paypal: 'PayPal' } as const;

/**
 * Redsys' Ds_Merchant_MerchantName holds 25 characters (Redsys "Parámetros de entrada y salida";
 * the OCA and Odoo integrations cut it there too). Real gateways get the name cut at a word, so no
 * word is cut in half; the local simulator, which has no such limit, gets the full name, so the
 * demo's gateway page shows the club as it is called.
 */
export function merchantName(name: string, environment: TenantGatewayRow['redsys_environment']) {
  const full = name.trim();
  if (environment === 'simulator' || full.length <= 25) return full;
  const cut = full.slice(0, 25);
  // A word that ends at the 25th character stays whole; otherwise back to the last space.
  if (full[25] === ' ') return cut;
  const space = cut.lastIndexOf(' ');
  const atWord = space > 0 ? cut.slice(0, space).trimEnd() : '';
  return atWord.length >= 10 ? atWord : cut;
}

/**
 * The merchant code and order a notification names, read before its signature is checked: only to
 * choose the key to check it with (an order started under a merchant the tenant no longer uses).
 */
function namedOrder(encoded: string): { code: string; order: string } | undefined {
  try {
    const params = decodeMerchantParameters(encoded);
    const code = params.Ds_MerchantCode ?? '';
    const order = params.Ds_Order ?? '';
    return code && order ? { code, order } : undefined;
  } catch {
    return undefined;
  }
}

export function createPaymentService(deps: PaymentServiceDeps) {
  const { db } = deps;
  const repository = createPaymentRepository(deps.secretBox);
  const now = deps.now ?? (() => new Date());

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
    // Room was checked at the start; another method may have taken it since. A card addition
    // held its place from the start: it counts itself out (before session 38 the tenth method,
    // added as a card, was refused by its own place and the gateway's token lost).
    const own = attempt.kind === 'card_verification' ? attempt.id : null;
    if (!(await roomForAnotherMethod(sql, attempt.customer_id, own))) return null;
    const contact = await repository.customerContact(sql, attempt.customer_id);
    const expiry =
      params.Ds_ExpiryDate && /^\d{4}$/.test(params.Ds_ExpiryDate)
        ? `${params.Ds_ExpiryDate.slice(2, 4)}${params.Ds_ExpiryDate.slice(0, 2)}` // yymm -> mmyy
        : null;
    const masked = maskedCardNumber(params.Ds_Card_Number ?? '');
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
      // What a later merchant-initiated charge (auto-pay) sends back as DS_MERCHANT_COF_TXNID.
      cofTxnid: /^[0-9A-Za-z]{1,40}$/.test(params.Ds_Merchant_Cof_Txnid ?? '')
        ? (params.Ds_Merchant_Cof_Txnid ?? null)
        : null,
    });
  }

  /**
   * Work beside a payment that must never undo it (the card saved with it, the customer's notice):
   * in a savepoint, so that its failure is logged and the payment still commits.
   */
  async function besidePayment<T>(
    sql: Sql,
    what: string,
    context: { tenantId?: string; attemptId: string },
    fn: () => Promise<T>,
  ): Promise<T | null> {
    const done = await inSavepoint(sql, fn);
    if (done.ok) return done.value;
    deps.log.error(
      { ...context, err: done.error },
      `ALERT: ${what} failed; the payment is recorded without it`,
    );
    return null;
  }

  /** The outcome of a card tokenisation (no money moves): the card is saved, or nothing. */
  async function saveVerifiedCard(
    sql: Sql,
    attempt: AttemptRow,
    params: Record<string, string>,
    response: string,
  ) {
    const ok = isAuthorised(response);
    const methodId = ok
      ? await besidePayment(sql, 'saving the card', { attemptId: attempt.id }, () =>
          saveCard(sql, attempt, params),
        )
      : null;
    await repository.settleAttempt(
      sql,
      attempt.id,
      {
        status: ok && methodId ? 'paid' : 'failed',
        dsResponse: response || null,
        authorisation: params.Ds_AuthorisationCode?.slice(0, 12) ?? null,
        methodId,
      },
      // A late notification with the token saves the card of an addition failed for the lack of
      // one: the query service's answer carries no token, nor does a release.
      methodId ? ['pending', 'failed'] : ['pending'],
    );
    return { outcome: ok && methodId ? ('paid' as const) : ('failed' as const), attempt };
  }

  /**
   * Applies a verified notification (or the query service's answer) to its attempt, once. The
   * attempt's instalments are locked first and the attempt after (the order `initPayment` takes
   * them in), so duplicates and a new start of the same instalments wait for each other.
   */
  async function settle(
    sql: Sql,
    tenantId: string,
    params: Record<string, string>,
    gateway: TenantGatewayRow,
  ): Promise<Settled> {
    const order = params.Ds_Order ?? '';
    // The merchant the verified message names: an order started before the operator changed the
    // tenant's merchant is still its old merchant's (migration 032).
    const merchantCode = params.Ds_MerchantCode ?? gateway.redsys_merchant_code ?? '';
    const found = await repository.findAttempt(sql, merchantCode, order);
    if (!found) return { outcome: 'unknown_order' };
    const matches =
      params.Ds_MerchantCode === found.merchant_code &&
      isSameTerminal(params.Ds_Terminal ?? '', found.terminal) &&
      params.Ds_Amount === String(found.amount_cents) &&
      params.Ds_Currency === found.currency &&
      (params.Ds_TransactionType === undefined ||
        params.Ds_TransactionType === (found.kind === 'card_verification' ? '7' : '0'));
    if (!matches) return { outcome: 'mismatch', attempt: found };
    if (found.kind === 'payment') await repository.lockAttemptInstalments(sql, found.id);
    const attempt = await repository.findAttemptForUpdate(sql, merchantCode, order);
    if (!attempt) return { outcome: 'unknown_order' };
    // An authorisation is final: a denial after it, or a replay, changes nothing.
    if (attempt.status === 'paid') return { outcome: 'duplicate', attempt };

    const response = params.Ds_Response ?? '';
    if (attempt.kind === 'card_verification') {
      // Failed is final for a denial, but not for an authorisation known without its token (the
      // query service's answer carries none; before session 36 the token that came after it was
      // dropped as a duplicate, and the card Redsys kept was never saved).
      const lateToken =
        attempt.status === 'failed' &&
        isAuthorised(response) &&
        Boolean(params.Ds_Merchant_Identifier) &&
        params.Ds_Merchant_Identifier !== 'REQUIRED';
      if (attempt.status !== 'pending' && !lateToken) return { outcome: 'duplicate', attempt };
      return saveVerifiedCard(sql, attempt, params, response);
    }
    if (!isAuthorised(response)) {
      // The customer posted the same card form again (Back, a second tab) and Redsys refused the
      // repeat: the order itself may have been paid, its notification lost. Nothing is settled;
      // the reconciliation asks Redsys about the order (before: failed and freed, and the money
      // taken recorded nowhere).
      if (isRepeatedOrder(response)) return { outcome: 'duplicate', attempt };
      if (attempt.status === 'superseded') {
        // The old card page's final word: nothing to do but stop asking the gateway about it.
        const closed = await repository.closeSuperseded(sql, attempt.id, response || null);
        return { outcome: closed ? 'failed' : 'duplicate', attempt };
      }
      if (attempt.status !== 'pending') return { outcome: 'duplicate', attempt };
      const failed = await repository.settleAttempt(sql, attempt.id, {
        status: 'failed',
        dsResponse: response || null,
        authorisation: null,
      });
      if (failed) await webhookEvents.paymentSettled(sql, attempt.id);
      // A declined auto-pay charge is told by the auto-pay module, once whichever path settles it
      // (its immediate answer, the reconciliation's query, a notification).
      if (failed && attempt.initiated_by === 'merchant') {
        const told = await recordAutoPayDecline(sql, attempt.id, response || 'failed');
        return { outcome: 'failed', attempt, autoPayDeclined: told };
      }
      // The customer's own "Cancel" on the gateway's page is no news to them (review #14): a
      // decline or an error is.
      if (!isCustomerCancel(response) && attempt.initiated_by === 'customer') {
        await createNotification(sql, {
          customerId: attempt.customer_id,
          type: 'payment_failed',
          params: { payment_id: attempt.id, amount_cents: attempt.amount_cents },
        });
      }
      return { outcome: 'failed', attempt };
    }
    return recordAuthorisation(sql, tenantId, attempt, params, gateway);
  }

  /**
   * Money was taken: whatever the attempt was (pending, superseded by a newer start, failed by a
   * release or a denial), the authorisation is recorded. It pays the attempt's instalments that are
   * still unpaid; what it charged for instalments already paid is a surplus, recorded once as a
   * refund (sent through Redsys by the refund outbox, or left for the operator where the tenant
   * turned automatic refunds off).
   */
  async function recordAuthorisation(
    sql: Sql,
    tenantId: string,
    attempt: AttemptRow,
    params: Record<string, string>,
    gateway: TenantGatewayRow,
  ): Promise<Settled> {
    const response = params.Ds_Response ?? '';
    const late = attempt.status !== 'pending';
    // Without Ds_Merchant_PayMethods Redsys offers every method of the terminal: what the customer
    // actually used is Ds_ProcessedPayMethod (68 Bizum), which wins over the method asked for.
    const payMethod: PayMethod = isBizumProcessed(params.Ds_ProcessedPayMethod)
      ? 'bizum'
      : attempt.pay_method;
    const paid = await repository.payInstalments(
      sql,
      attempt.id,
      chargedOn(params.Ds_Date, attempt.created_at, now()),
      instalmentMethodText[payMethod],
    );
    await recordReturnFeesPaid(
      sql,
      attempt.id,
      paid.filter((i) => i.fee_cents > 0),
    );
    // When the gateway charged, where it says: its receipt is dated so, as its instalments are.
    const moment = chargedMoment(params.Ds_Date, params.Ds_Hour, attempt.created_at, now());
    if (moment) await repository.setChargedAt(sql, attempt.id, moment);
    const appliedCents = paid.reduce((sum, i) => sum + i.amount_cents, 0);
    const surplusCents = attempt.amount_cents - appliedCents;
    const paidInvoices = [...new Set(paid.map((i) => i.invoice_id))].sort();
    const allInvoices = await repository.attemptInvoices(sql, attempt.id);
    // Bizum keeps no card: whatever reference its notification carries is not a card on file.
    const context = { tenantId, attemptId: attempt.id };
    const methodId =
      attempt.save_card && payMethod === 'card'
        ? await besidePayment(sql, 'saving the card', context, () => saveCard(sql, attempt, params))
        : null;
    if (
      await repository.markAuthorised(sql, attempt.id, {
        dsResponse: response,
        authorisation: params.Ds_AuthorisationCode?.slice(0, 12) ?? null,
        methodId,
        payMethod: payMethod === attempt.pay_method ? null : payMethod,
      })
    )
      await webhookEvents.paymentSettled(sql, attempt.id);
    // The attempt as settled: the receipt e-mail says how it was paid (Bizum over the card asked).
    const settledAs: AttemptRow = { ...attempt, pay_method: payMethod };
    if (appliedCents > 0) {
      await besidePayment(sql, "the customer's notice", context, () =>
        createNotification(sql, {
          customerId: attempt.customer_id,
          type: 'payment_succeeded',
          params: { payment_id: attempt.id, amount_cents: appliedCents, invoices: paidInvoices },
        }),
      );
    }
    if (surplusCents <= 0) {
      if (late) {
        deps.log.warn(
          { tenantId, order: attempt.order_number, was: attempt.status },
          'late card authorisation recorded: it paid its instalments',
        );
      }
      return { outcome: 'paid', attempt: settledAs, invoices: paidInvoices };
    }

    const automatic = gateway.auto_refund;
    const refundId = await repository.insertRefund(sql, {
      attemptId: attempt.id,
      customerId: attempt.customer_id,
      amountCents: surplusCents,
      status: automatic ? 'pending' : 'review',
      reviewReason: automatic ? null : 'auto_refund_off',
    });
    if (refundId) {
      await webhookEvents.refund(sql, refundId, 'payment.overpaid');
      const overpaidInvoices = allInvoices.filter((id) => !paidInvoices.includes(id));
      await besidePayment(sql, "the customer's overpayment notice", context, () =>
        createNotification(sql, {
          customerId: attempt.customer_id,
          type: 'payment_overpaid',
          params: {
            payment_id: attempt.id,
            amount_cents: attempt.amount_cents,
            refund_cents: surplusCents,
            invoices: overpaidInvoices.length > 0 ? overpaidInvoices : allInvoices,
            refund: automatic ? 'automatic' : 'manual',
          },
        }),
      );
    }
    deps.log.warn(
      {
        tenantId,
        order: attempt.order_number,
        was: attempt.status,
        surplusCents,
        refund: automatic ? 'automatic' : 'operator',
      },
      'ALERT: card payment for instalments already paid: overpayment recorded',
    );
    return { outcome: 'overpaid', attempt: settledAs, invoices: paidInvoices };
  }

  /**
   * What a start (or its preview) pays: chosen instalments, or every unpaid instalment of some
   * invoices. Unknown or another customer's: 404; paid or cancelled (nothing left to pay): 422
   * `not_payable`. `lock` takes the instalments for this payment (the start); `read` only reads.
   */
  async function payableItems<M extends 'lock' | 'read'>(
    sql: SqlQuery,
    customerId: string,
    body: TCheckoutPreviewRequest & { payment_id?: string | undefined },
    mode: M,
  ): Promise<M extends 'lock' ? PayableRow[] : PreviewRow[]> {
    type Rows = M extends 'lock' ? PayableRow[] : PreviewRow[];
    const find = (by: { ids: string[] } | { invoices: string[] }) =>
      (mode === 'lock'
        ? repository.lockInstalments(sql, customerId, by)
        : repository.previewInstalments(sql, customerId, by)) as Promise<Rows>;
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
    if (ids.length > 0) {
      const items = await find({ ids });
      if (items.length !== ids.length) throw notFound('Payment');
      if (items.some((i) => i.status !== 'pending' && i.status !== 'returned')) {
        throw new FieldValidationError({ payment_ids: [FieldError.notPayable] });
      }
      return items;
    }
    const owned = await repository.ownedInvoices(sql, customerId, invoiceIds);
    if (owned.length !== invoiceIds.length) throw notFound('Invoice');
    const items = await find({ invoices: invoiceIds });
    const covered = new Set(items.map((i) => i.invoice_id));
    if (invoiceIds.some((id) => !covered.has(id))) {
      throw new FieldValidationError({ invoice_id: [FieldError.notPayable] });
    }
    return items;
  }

  /**
   * The methods a tenant takes (spec §3 "Checkin methods"): the card, then Bizum and PayPal only
   * when the tenant's `redsys-pay-methods` include their codes (`z`, `p`).
   */
  function methodsOf(gateway: TenantGatewayRow | undefined): TCheckinMethod[] {
    if (!gateway || !isConfigured(gateway)) return [];
    const methods: TCheckinMethod[] = ['credit_card'];
    if (gateway.redsys_pay_methods.includes(REDSYS_BIZUM)) methods.push('bizum');
    if (gateway.redsys_pay_methods.includes(REDSYS_PAYPAL)) methods.push('paypal');
    return methods;
  }

  /** After the commit that recorded an auto-pay decline: its e-mail, now (a failure waits for the outbox). */
  async function sendAutoPayDecline(tenantId: string) {
    await deps
      .onAutoPayDeclined?.(tenantId)
      .catch((error: unknown) =>
        deps.log.error({ err: error, tenantId }, 'auto-pay decline e-mail failed'),
      );
  }

  /** Sends the receipt of an authorisation that paid instalments; a mail failure is only logged. */
  async function sendReceipt(tenantId: string, result: Settled) {
    const receipt =
      (result.outcome === 'paid' || result.outcome === 'overpaid') &&
      result.attempt?.kind === 'payment' &&
      (result.invoices?.length ?? 0) > 0;
    if (receipt && result.attempt) {
      const { attempt, invoices = [] } = result;
      await deps
        .onPaid({ tenantId, attempt, invoices })
        .catch((error: unknown) =>
          deps.log.error({ err: error, tenantId }, 'payment receipt e-mail failed'),
        );
    }
  }

  return {
    /**
     * A merchant-initiated payment attempt (auto-pay) of a customer's instalments with a card on
     * file, in the caller's transaction: the caller holds the instalments' locks and records its
     * own row in the same transaction, so the attempt exists once or not at all. Answers
     * `in_progress` when another attempt holds one of them (a payment by hand being made),
     * `not_configured` when the tenant has no gateway. Nothing is sent here: `chargeOnFile` sends it
     * after the commit.
     */
    async startMerchantAttempt(
      sql: Sql,
      input: {
        customerId: string;
        instalments: { id: string; invoice_id: string; amount_cents: number; status: string }[];
        paymentMethodId: string;
        language: Language;
      },
    ): Promise<{ id: string; order: string } | 'in_progress' | 'not_configured'> {
      const gateway = await repository.gateway(sql);
      const version = gateway ? allowedVersions(gateway)[0] : undefined;
      if (!gateway?.redsys_merchant_code || !gateway.redsys_terminal || !version) {
        return 'not_configured';
      }
      const ids = input.instalments.map((i) => i.id);
      if (await repository.anyHeld(sql, ids)) return 'in_progress';
      const orderNumber = newOrderNumber();
      const attempt = await repository.insertAttempt(sql, {
        customerId: input.customerId,
        orderNumber,
        merchantCode: gateway.redsys_merchant_code,
        terminal: gateway.redsys_terminal,
        amountCents: input.instalments.reduce((sum, i) => sum + i.amount_cents, 0),
        saveCard: false,
        paymentMethodId: input.paymentMethodId,
        signatureVersion: version,
        language: input.language,
        initiatedBy: 'merchant',
      });
      // Auto-pay charges instalments falling due, never a returned debit: no return fee goes with them.
      await repository.insertItems(
        sql,
        attempt.id,
        input.instalments.map((i) => ({ ...i, fee_cents: 0 })),
      );
      return { id: attempt.id, order: orderNumber };
    },

    /**
     * Sends a merchant-initiated attempt to the gateway (REST, MIT) and settles it with the answer
     * through the same path as a notification: authorised pays the instalments (or records an
     * overpayment, refunded like every other), a decline fails it and frees them. An unsigned refusal
     * (SIS error: no operation happened) fails it too. Without a trustworthy answer the attempt
     * stays pending for the reconciliation to ask the gateway. Sent only while pending.
     */
    async chargeOnFile(
      tenantId: string,
      attemptId: string,
      send: (gateway: TenantGatewayRow, input: MitChargeInput) => Promise<MitChargeResult>,
    ): Promise<
      | { outcome: 'paid' | 'overpaid'; code: string }
      | { outcome: 'declined'; code: string }
      | { outcome: 'unknown'; code: string }
      | { outcome: 'skipped' }
    > {
      const found = await db.withTenant(tenantId, async (sql) => ({
        gateway: await repository.gateway(sql),
        attempt: await repository.attemptWithCard(sql, attemptId),
      }));
      const { gateway, attempt } = found;
      if (!gateway || attempt?.status !== 'pending' || attempt.initiated_by !== 'merchant') {
        return { outcome: 'skipped' };
      }
      const fail = async (code: string) => {
        await db.withTenant(tenantId, async (sql) => {
          await repository.lockAttemptInstalments(sql, attempt.id);
          const failed = await repository.settleAttempt(sql, attempt.id, {
            status: 'failed',
            dsResponse: code.slice(0, 12),
            authorisation: null,
          });
          if (failed) {
            await webhookEvents.paymentSettled(sql, attempt.id);
            await recordAutoPayDecline(sql, attempt.id, code);
          }
        });
        return { outcome: 'declined' as const, code };
      };
      if (!attempt.redsys_reference || !attempt.redsys_cof_txnid) return fail('no_cof_txnid');
      const result = await send(gateway, {
        order: attempt.order_number,
        amountCents: attempt.amount_cents,
        terminal: attempt.terminal,
        merchantCode: attempt.merchant_code,
        identifier: attempt.redsys_reference,
        cofTxnid: attempt.redsys_cof_txnid,
      });
      if (result.kind === 'refused') return fail(result.code);
      if (result.kind === 'unknown') {
        deps.log.warn(
          { tenantId, order: attempt.order_number, reason: result.reason },
          'auto-pay charge without a trustworthy answer: left for the reconciliation',
        );
        return { outcome: 'unknown', code: result.reason };
      }
      const settled = await db.withTenant(tenantId, (sql) =>
        settle(sql, tenantId, result.params, gateway),
      );
      await sendReceipt(tenantId, settled);
      if (settled.outcome === 'paid' || settled.outcome === 'overpaid') {
        return { outcome: settled.outcome, code: result.code };
      }
      if (settled.outcome === 'failed') return { outcome: 'declined', code: result.code };
      deps.log.warn(
        { tenantId, order: attempt.order_number, outcome: settled.outcome },
        'ALERT: auto-pay answer not applied',
      );
      return { outcome: 'unknown', code: settled.outcome };
    },

    /**
     * What the payment confirmation shows (PRODUCT.md "Screens"): the amount and instalments the
     * server computes, the methods the tenant takes, and the time in Madrid. Read only.
     */
    async checkoutPreview(
      actor: { tenantId: string; customerId: string },
      body: TCheckoutPreviewRequest,
    ): Promise<TCheckoutPreviewResponse> {
      return db.withTenant(actor.tenantId, async (sql) => {
        const items = await payableItems(sql, actor.customerId, body, 'read');
        const gateway = await repository.gateway(sql);
        const at = now();
        const today = todayIso(at).replace(/-/g, '');
        return {
          amount: centsToAmount(payableCents(items)),
          currency: 'EUR',
          instalments: items.map((i) => ({
            payment_id: i.id,
            invoice_id: i.invoice_id,
            seq: i.seq,
            due_date: i.due_date,
            amount: centsToAmount(i.amount_cents),
            overdue: i.due_date < today,
            status: paymentStatus(i, today),
            ...(i.fee_cents > 0 ? { fee: centsToAmount(i.fee_cents) } : {}),
          })),
          methods: methodsOf(gateway),
          ...madridDateTime(at),
        };
      });
    },

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

        if (body.method && !methodsOf(gateway).includes(body.method)) {
          throw new FieldValidationError({ method: [FieldError.invalidValue] });
        }
        // Only a card keeps a card on file: Bizum's reference is not a card (redsys-notes §3), and
        // PayPal pays with no card of ours; neither saving the card nor paying with a saved one
        // goes with them (with PayPal the saved card was charged and recorded as PayPal: session 39).
        if (
          body.method &&
          body.method !== 'credit_card' &&
          (body.save_card === true || body.card_id)
        ) {
          throw new FieldValidationError({
            [body.card_id ? 'card_id' : 'save_card']: [FieldError.invalidValue],
          });
        }
        const payMethod: PayMethod =
          body.method === 'bizum' ? 'bizum' : body.method === 'paypal' ? 'paypal' : 'card';
        const items = await payableItems(sql, actor.customerId, body, 'lock');
        const amountCents = payableCents(items);
        if (toCents(body.amount) !== amountCents) {
          throw new FieldValidationError({ amount: [FieldError.amountMismatch] });
        }

        let reference: string | undefined;
        if (body.card_id) {
          reference = await repository.savedCardReference(sql, actor.customerId, body.card_id);
          // Its own code: the card was removed (another window, another device), not what is
          // paid, which a plain not_found said (session 39). A 404 as for any id not the customer's.
          if (!reference) throw new AppError(404, ErrorCode.cardNotFound, 'Card not found');
        }
        const language: Language = body.language ?? 'es';
        // At the cap of saved methods the payment goes on without saving the card (its status
        // says `card_saved: false`): a full list never stands between the customer and paying.
        const saveCard =
          body.save_card === true &&
          !reference &&
          (await roomForAnotherMethod(sql, actor.customerId));
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
          payMethod,
        });
        // A customer back from the gateway (Back, a closed tab) starts again at once: the open
        // attempts holding any of these instalments are superseded, in this transaction. Starts of
        // the same instalments queue on the instalment locks taken above, so each one finds the one
        // before it committed and supersedes it: one open attempt, however many start at once. A
        // late authorisation of a superseded attempt is still honoured (recordAuthorisation).
        await repository.supersedeHolders(
          sql,
          items.map((i) => i.id),
          attempt.id,
        );
        try {
          // One active item per instalment (unique index): the last guard against two open
          // attempts; the whole transaction (this attempt included) rolls back.
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
          Ds_Merchant_MerchantURL: `${deps.notificationBaseUrl}${apiPrefix(actor.tenantId)}${notificationPath}`,
          Ds_Merchant_UrlOK: `${site}${appPaths.paymentSuccess}?payment_id=${attempt.id}`,
          Ds_Merchant_UrlKO: `${site}${appPaths.paymentError}?payment_id=${attempt.id}`,
          Ds_Merchant_ConsumerLanguage: redsysLanguage[language],
          Ds_Merchant_MerchantName: merchantName(gateway.company_name, gateway.redsys_environment),
          Ds_Merchant_ProductDescription: invoicesPaid.join(', ').slice(0, 125),
        };
        if (payMethod === 'paypal') params.Ds_Merchant_PayMethods = REDSYS_PAYPAL;
        if (payMethod === 'bizum') params.Ds_Merchant_PayMethods = REDSYS_BIZUM;
        if (saveCard) params.Ds_Merchant_Identifier = 'REQUIRED';
        if (reference) params.Ds_Merchant_Identifier = reference;
        if (body.simulate_decline && gateway.redsys_environment === 'simulator') {
          params.Ds_Merchant_MerchantData = 'simulate=decline';
        }
        const signed = createPaymentRequest({ version, secret: gateway.redsys_secret_key, params });
        return {
          success: true,
          payment_id: attempt.id,
          order_id: orderNumber,
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
            Ds_Merchant_MerchantURL: `${deps.notificationBaseUrl}${apiPrefix(actor.tenantId)}${notificationPath}`,
            Ds_Merchant_UrlOK: `${site}${appPaths.paymentMethods}?card_attempt=${attempt.id}`,
            Ds_Merchant_UrlKO: `${site}${appPaths.paymentMethods}?card_attempt=${attempt.id}`,
            Ds_Merchant_ConsumerLanguage: redsysLanguage[language],
            Ds_Merchant_MerchantName: merchantName(
              gateway.company_name,
              gateway.redsys_environment,
            ),
            Ds_Merchant_Identifier: 'REQUIRED',
          },
        });
        return {
          success: true,
          payment_id: attempt.id,
          order_id: orderNumber,
          redsys_params: signed,
          url: `${gatewayOrigin(gateway.redsys_environment, deps.simulatorUrl)}/sis/realizarPago`,
          message: 'Card tokenisation started',
        };
      });
    },

    /**
     * A server-to-server notification: verified with THIS tenant's key, checked field by field
     * against the attempt, applied once in one transaction. Nothing is written before the
     * signature verifies (junk costs one read, never a row); verified notifications are stored as
     * received. Answers the outcome for logs and tests; Redsys only needs a 200.
     */
    async handleNotification(
      tenantId: string,
      input: UntrustedSignedMessage,
    ): Promise<NotificationOutcome> {
      const fields = [input.Ds_SignatureVersion, input.Ds_MerchantParameters, input.Ds_Signature];
      if (!fields.every((field) => typeof field === 'string' && field !== '')) {
        return 'bad_signature'; // malformed: not even worth a database read
      }
      // The keys that may have signed it: the merchant the order was started under (the tenant's
      // current one unless the operator changed it since), then the current one (a key Redsys
      // rotated signs every later message, of old orders too).
      const current = await db.readTenant(tenantId, (sql) => repository.gateway(sql));
      const named = namedOrder(String(input.Ds_MerchantParameters));
      const ofOrder =
        current && named
          ? await db.readTenant(tenantId, (sql) =>
              repository.gatewayOfOrder(sql, current, named.code, named.order),
            )
          : current;
      const signers = [ofOrder, current].filter(
        (g, i, all): g is TenantGatewayRow =>
          Boolean(g?.redsys_secret_key) &&
          (i === 0 || g?.redsys_secret_key !== all[0]?.redsys_secret_key),
      );
      if (signers.length === 0) return 'not_configured';
      let refusal = '';
      let verified: { gateway: TenantGatewayRow; params: Record<string, string> } | undefined;
      for (const signer of signers) {
        const read = readNotification(
          input,
          signer.redsys_secret_key ?? '',
          allowedVersions(signer),
        );
        if (read.ok) {
          verified = { gateway: signer, params: read.params };
          break;
        }
        refusal ||= read.reason;
      }
      if (!verified) {
        deps.log.warn({ tenantId, reason: refusal }, 'ALERT: Redsys notification refused');
        return 'bad_signature';
      }
      const { gateway, params } = verified;
      const result = await db.withTenant(tenantId, async (sql) => {
        const record = (outcome: NotificationOutcome, attemptId: string | null) =>
          repository.recordNotification(sql, {
            attemptId,
            version: String(input.Ds_SignatureVersion ?? ''),
            parameters: String(input.Ds_MerchantParameters ?? ''),
            signature: String(input.Ds_Signature ?? ''),
            outcome,
          });
        const settled = await settle(sql, tenantId, params, gateway);
        await record(settled.outcome, settled.attempt?.id ?? null);
        return settled;
      });
      if (result.outcome === 'mismatch') {
        deps.log.warn({ tenantId, outcome: result.outcome }, 'ALERT: Redsys notification refused');
      } else if (result.outcome === 'unknown_order' && isAuthorised(params.Ds_Response ?? '')) {
        // Signed with a key of ours, authorised, and no attempt of this tenant has that order:
        // money may have been taken that nothing here records. Stored (redsys_notifications, no
        // attempt) for the operator to check in the Redsys back office.
        deps.log.warn(
          { tenantId, outcome: result.outcome, order: params.Ds_Order },
          'ALERT: authorised Redsys notification for an order the portal does not know',
        );
      }
      await sendReceipt(tenantId, result);
      if (result.autoPayDeclined) await sendAutoPayDecline(tenantId);
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
        failure: row.status === 'failed' ? failureOf(row.ds_response) : null,
        created_at: row.created_at.toISOString(),
        settled_at: row.settled_at ? row.settled_at.toISOString() : null,
        ...madridDateTime(row.charged_at ?? row.settled_at ?? row.created_at),
        refund:
          row.refund_cents !== null && row.refund_status !== null
            ? {
                amount: centsToAmount(row.refund_cents),
                // The customer is told it is on its way while it is being sent.
                status: row.refund_status === 'sending' ? 'pending' : row.refund_status,
              }
            : null,
        method: checkinMethodOf[row.pay_method],
      };
    },

    /**
     * The gateway never received an attempt (the customer never reached the card page): a pending
     * one fails and frees its instalments; a superseded one is no longer asked for. Whatever the
     * gateway says later is still honoured.
     */
    async releaseAttempt(
      tenantId: string,
      attemptId: string,
      { recheckInSeconds }: { recheckInSeconds?: number } = {},
    ): Promise<void> {
      const told = await db.withTenant(tenantId, async (sql) => {
        // Let go without the gateway's final word: asked about again later (reconcile.ts).
        const recheck = () =>
          recheckInSeconds ? repository.scheduleRecheck(sql, attemptId, recheckInSeconds) : null;
        if (await repository.closeSuperseded(sql, attemptId, null)) {
          await recheck();
          return false;
        }
        const failed = await repository.settleAttempt(sql, attemptId, {
          status: 'failed',
          dsResponse: null,
          authorisation: null,
        });
        if (!failed) return false;
        await recheck();
        await webhookEvents.paymentSettled(sql, attemptId);
        // An auto-pay charge the gateway never took: unpaid, retried like a decline, and told so.
        return recordAutoPayDecline(sql, attemptId, 'no_answer');
      });
      if (told) await sendAutoPayDecline(tenantId);
    },

    /** Settles an attempt the gateway's query answered for (the reconciliation job). */
    async settleFromQuery(
      tenantId: string,
      params: Record<string, string>,
    ): Promise<NotificationOutcome> {
      const settled = await db.withTenant(tenantId, async (sql) => {
        const gateway = await repository.gateway(sql);
        if (!gateway) return { outcome: 'not_configured' as const };
        return settle(sql, tenantId, params, gateway);
      });
      // The receipt, as a notification that paid would send: a payment whose notification was
      // lost (or a released one the re-check found authorised) went without one.
      await sendReceipt(tenantId, settled);
      if (settled.autoPayDeclined) await sendAutoPayDecline(tenantId);
      return settled.outcome;
    },
  };
}
export type PaymentService = ReturnType<typeof createPaymentService>;
