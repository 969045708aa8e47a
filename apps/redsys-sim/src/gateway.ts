import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  QUERY_BAD_SIGNATURE,
  QUERY_NOT_FOUND,
  PROCESSED_PAY_METHOD,
  REFUND_APPROVED,
  createNotification,
  createQueryAnswer,
  createRestResponse,
  decodeMerchantParameters,
  getParameter,
  isAuthorised,
  isBizumRequest,
  isSameTerminal,
  isSignatureVersion,
  isValidOrderNumber,
  padTerminal,
  readPaymentRequest,
  readQueryRequest,
  verifyQuerySignature,
} from '@portal/redsys';
import type {
  MerchantParameters,
  QueryOperation,
  SignatureVersion,
  SignedMessage,
} from '@portal/redsys';
import {
  CHALLENGE_CODE,
  TEST_CARDS,
  brandOf,
  digitsOnly,
  isLuhnValid,
  isValidCvc,
  maskCardNumber,
  newAuthorisationCode,
  newCofTxnid,
  parseExpiry,
} from './cards.ts';
import type { Card } from './cards.ts';
import { DS_RESPONSE, MIT_ERRORS, REFUND_ERRORS } from './codes.ts';
import type { SisErrorCode } from './codes.ts';
import { MESSAGES, languageOf } from './i18n.ts';
import type { Language } from './i18n.ts';
import { deliverNotification } from './notifier.ts';
import type { NotificationRecord } from './notifier.ts';
import type { ResolvedOptions, SimulatorMerchant } from './options.ts';
import type { CardFormErrors } from './pages/payment-pages.ts';

/** One customer at the gateway: from the signed form POST to the redirect back to the shop. */
export type PaymentSession = {
  id: string;
  merchant: SimulatorMerchant;
  version: SignatureVersion;
  order: string;
  terminal: string;
  amount: string;
  currency: string;
  transactionType: string;
  merchantName: string;
  merchantData: string;
  consumerLanguage: string;
  language: Language;
  merchantUrl: string | null;
  urlOk: string | null;
  urlKo: string | null;
  forcedDecline: boolean;
  saveCard: boolean;
  /** Ds_Merchant_PayMethods=z: the Bizum pages instead of the card's (redsys-notes §3). */
  bizum: boolean;
  /** The Bizum mobile number typed on the first Bizum page (memory only, never notified). */
  phone: string;
  step: 'card' | 'saved-card' | 'challenge' | 'bizum' | 'bizum-app' | 'done';
  /** The saved card being paid with, or the card waiting for its 3DS code. Memory only. */
  card: Card | null;
  expiresAt: number;
};

/** A refund (type 3) applied to an order through trataPeticionREST. */
type RefundRecord = { amountCents: number; authorisationCode: string; at: Date };

/** The gateway's memory of an order, for the query service, refunds and repeated-order checks. */
type OrderRecord = {
  merchant: SimulatorMerchant;
  order: string;
  terminal: string;
  amount: string;
  currency: string;
  transactionType: string;
  status: 'card' | 'challenge' | 'done';
  dsResponse: string | null;
  authorisationCode: string;
  securePayment: boolean;
  updatedAt: Date;
  refunds: RefundRecord[];
};

/** `cofTxnid`: the scheme's id of the operation that saved it (Ds_Merchant_Cof_Txnid). */
type SavedCard = Card & { merchantCode: string; cofTxnid?: string };

/** A merchant-initiated charge of a saved card (trataPeticionREST), as the simulator answered it. */
export type MitChargeRecord = {
  order: string;
  merchantCode: string;
  amountCents: number;
  identifier: string;
  dsResponse: string;
  at: string;
};

/** What the browser sees next; the routes turn it into HTML or a redirect. */
export type Screen =
  | { kind: 'card'; session: PaymentSession; errors?: CardFormErrors }
  | { kind: 'saved-card'; session: PaymentSession }
  | { kind: 'challenge'; session: PaymentSession }
  | { kind: 'bizum'; session: PaymentSession; invalid?: boolean; phone?: string }
  | { kind: 'bizum-app'; session: PaymentSession }
  | { kind: 'sis-error'; code: SisErrorCode; language: Language }
  | {
      kind: 'done';
      language: Language;
      dsResponse: string;
      authorised: boolean;
      redirectTo: string | null;
    };

/** The synchronous answer of trataPeticionREST: signed, or Redsys' unsigned error. */
export type RestAnswer = SignedMessage | { errorCode: string };

type Outcome = {
  dsResponse: string;
  card: Card | null;
  securePayment: boolean;
};

type FormBody = Record<string, unknown>;

function text(body: FormBody, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

function httpUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The portal's testing toggle puts "simulate=decline" in Ds_Merchant_MerchantData. */
function asksForDecline(merchantData: string | undefined): boolean {
  return !!merchantData && safeDecode(merchantData).includes('simulate=decline');
}

/** The parts of a moment on Redsys' clock (Spain), two digits each but the year. */
const madridFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
function madridParts(at: Date): Record<string, string> {
  return Object.fromEntries(madridFormat.formatToParts(at).map((p) => [p.type, p.value]));
}

/** Ds_Date (dd/mm/yyyy) and Ds_Hour (HH:MM) as notifications write them. */
function madridDateTime(now: Date): { date: string; hour: string } {
  const p = madridParts(now);
  return { date: `${p.day}/${p.month}/${p.year}`, hour: `${p.hour}:${p.minute}` };
}

/** Ds_Date (yyyy-mm-dd) and Ds_Hour (HH:MM:SS) as the SOAP query service writes them. */
function queryDateTime(at: Date): { date: string; hour: string } {
  const p = madridParts(at);
  return { date: `${p.year}-${p.month}-${p.day}`, hour: `${p.hour}:${p.minute}:${p.second}` };
}

export function createGateway(options: ResolvedOptions, log: FastifyBaseLogger) {
  const sessions = new Map<string, PaymentSession>();
  const orders = new Map<string, OrderRecord>();
  const savedCards = new Map<string, SavedCard>();
  const notifications: NotificationRecord[] = [];
  const mitCharges: MitChargeRecord[] = [];

  const notifierSettings = {
    attempts: options.notificationAttempts,
    retryDelayMs: options.notificationRetryDelayMs,
    timeoutMs: options.notificationTimeoutMs,
    now: options.now,
  };

  const orderKey = (merchantCode: string, terminal: string, order: string) =>
    `${merchantCode}/${Number(terminal)}/${order}`;

  function findMerchant(merchantCode: string, terminal: string) {
    return options.merchants.find(
      (merchant) =>
        merchant.merchantCode === merchantCode && isSameTerminal(merchant.terminal, terminal),
    );
  }

  function findSavedCard(reference: string, merchantCode: string): SavedCard | undefined {
    const saved = savedCards.get(reference);
    if (saved) return saved.merchantCode === merchantCode ? saved : undefined;
    if (options.demoReferencePrefix && reference.startsWith(options.demoReferencePrefix)) {
      // "<prefix>decline...": a saved card whose merchant-initiated charges are declined.
      const declines = reference.startsWith(`${options.demoReferencePrefix}decline`);
      return {
        number: declines ? TEST_CARDS.mitDeclined : TEST_CARDS.authorised,
        expiry: '3012',
        brand: '1',
        merchantCode,
      };
    }
    return undefined;
  }

  /**
   * Reads a signed message addressed to a merchant: which merchant it claims (unverified), then
   * the signature with that merchant's key. Shared by the payment form and the query service.
   */
  function readSignedRequest(body: FormBody):
    | {
        ok: true;
        merchant: SimulatorMerchant;
        version: SignatureVersion;
        params: MerchantParameters;
      }
    | { ok: false; code: SisErrorCode; language: Language } {
    const version = text(body, 'Ds_SignatureVersion');
    if (!version || !isSignatureVersion(version)) {
      return { ok: false, code: 'SIS0429', language: 'es' };
    }
    const encoded = text(body, 'Ds_MerchantParameters');
    if (!encoded) return { ok: false, code: 'SIS0430', language: 'es' };
    let claimed: MerchantParameters;
    try {
      claimed = decodeMerchantParameters(encoded);
    } catch {
      return { ok: false, code: 'SIS0430', language: 'es' };
    }
    const language = languageOf(getParameter(claimed, 'Ds_Merchant_ConsumerLanguage'));
    const merchantCode = getParameter(claimed, 'Ds_Merchant_MerchantCode');
    const terminal = getParameter(claimed, 'Ds_Merchant_Terminal');
    if (!merchantCode) return { ok: false, code: 'SIS0008', language };
    if (!terminal) return { ok: false, code: 'SIS0010', language };
    if (!getParameter(claimed, 'Ds_Merchant_Order'))
      return { ok: false, code: 'SIS0074', language };
    const merchant = findMerchant(merchantCode, terminal);
    if (!merchant) return { ok: false, code: 'SIS0026', language };
    if (!merchant.allowedVersions.includes(version))
      return { ok: false, code: 'SIS0429', language };
    const read = readPaymentRequest(body, merchant.secretKey, merchant.allowedVersions);
    if (!read.ok) return { ok: false, code: 'SIS0042', language };
    return { ok: true, merchant, version, params: read.params };
  }

  /** POST /sis/realizarPago: verify the merchant's signed form and open the card page. */
  async function openPayment(body: FormBody): Promise<Screen> {
    const read = readSignedRequest(body);
    if (!read.ok) return { kind: 'sis-error', code: read.code, language: read.language };
    const { merchant, version, params } = read;
    const param = (name: string) => getParameter(params, name);
    const language = languageOf(param('Ds_Merchant_ConsumerLanguage'));
    const fail = (code: SisErrorCode): Screen => ({ kind: 'sis-error', code, language });

    const order = param('Ds_Merchant_Order') ?? '';
    const terminal = param('Ds_Merchant_Terminal') ?? '';
    const amount = param('Ds_Merchant_Amount');
    const currency = param('Ds_Merchant_Currency');
    const transactionType = param('Ds_Merchant_TransactionType');
    // Type 7 (authentication) for 0 € with Ds_Merchant_Identifier=REQUIRED saves a card without
    // charging it: how the portal tokenises a card from the payment-methods screen.
    const tokenisation = transactionType === '7' && param('Ds_Merchant_Identifier') === 'REQUIRED';
    if (!isValidOrderNumber(order)) return fail('SIS0014');
    if (!amount) return fail('SIS0018');
    if (!/^\d{1,12}$/.test(amount) || (tokenisation ? Number(amount) !== 0 : Number(amount) <= 0)) {
      return fail('SIS0019');
    }
    if (!currency) return fail('SIS0015');
    // The portal charges euros only; other currencies would need their own formatting rules.
    if (currency !== '978') return fail('SIS0027');
    // Authorisations (type 0) and card tokenisation; refunds etc. are not simulated.
    if (transactionType !== '0' && !tokenisation) return fail('SIS0023');
    // Bizum: only its authorisation (type 0) is simulated; the double flow 7/8 is not used.
    const bizum = isBizumRequest(param('Ds_Merchant_PayMethods'));
    if (bizum && transactionType !== '0') return fail('SIS0023');

    const key = orderKey(merchant.merchantCode, terminal, order);
    if (orders.get(key)?.status === 'done') return fail('SIS0051');

    // A new form POST for the same order replaces any page still open for it, so one order can
    // never be paid twice; expired pages go too, so a long-running simulator does not grow.
    const nowMs = options.now().getTime();
    for (const [id, open] of sessions) {
      const sameOrder = orderKey(open.merchant.merchantCode, open.terminal, open.order) === key;
      if (sameOrder || open.expiresAt < nowMs) sessions.delete(id);
    }

    const merchantData = param('Ds_Merchant_MerchantData') ?? '';
    const identifier = param('Ds_Merchant_Identifier');
    const session: PaymentSession = {
      id: randomBytes(16).toString('hex'),
      merchant,
      version,
      order,
      terminal,
      amount,
      currency,
      transactionType,
      merchantName: param('Ds_Merchant_MerchantName') || merchant.name || merchant.merchantCode,
      merchantData,
      consumerLanguage: param('Ds_Merchant_ConsumerLanguage') ?? '',
      language,
      merchantUrl: httpUrl(param('Ds_Merchant_MerchantURL')),
      urlOk: httpUrl(param('Ds_Merchant_UrlOK')),
      urlKo: httpUrl(param('Ds_Merchant_UrlKO')),
      forcedDecline:
        asksForDecline(merchantData) || asksForDecline(text(body, 'Ds_Merchant_MerchantData')),
      // Bizum keeps no card: a reference request is not one for a card.
      saveCard: identifier === 'REQUIRED' && !bizum,
      bizum,
      phone: '',
      step: bizum ? 'bizum' : 'card',
      card: null,
      expiresAt: options.now().getTime() + options.sessionTtlMs,
    };
    orders.set(key, {
      merchant,
      order,
      terminal: padTerminal(String(Number(terminal))),
      amount,
      currency,
      transactionType,
      status: 'card',
      dsResponse: null,
      authorisationCode: '',
      securePayment: false,
      updatedAt: options.now(),
      refunds: [],
    });

    if (bizum) {
      sessions.set(session.id, session);
      return { kind: 'bizum', session };
    }
    if (identifier && identifier !== 'REQUIRED') {
      const saved = findSavedCard(identifier, merchant.merchantCode);
      if (!saved) {
        return complete(session, {
          dsResponse: DS_RESPONSE.unknownReference,
          card: null,
          securePayment: false,
        });
      }
      session.card = { number: saved.number, expiry: saved.expiry, brand: saved.brand };
      // Ds_Merchant_DirectPayment=true: Redsys charges the reference without showing any page.
      if (param('Ds_Merchant_DirectPayment') === 'true') {
        return chargeCard(session, session.card, false);
      }
      session.step = 'saved-card';
      sessions.set(session.id, session);
      return { kind: 'saved-card', session };
    }
    sessions.set(session.id, session);
    return { kind: 'card', session };
  }

  function liveSession(id: string, step: PaymentSession['step']): PaymentSession | null {
    const session = sessions.get(id);
    if (!session) return null;
    if (session.expiresAt < options.now().getTime()) {
      sessions.delete(id);
      return null;
    }
    return session.step === step ? session : null;
  }

  const lostSession: Screen = { kind: 'sis-error', code: 'SIS0081', language: 'es' };

  function cancel(session: PaymentSession): Promise<Screen> {
    return complete(session, {
      dsResponse: DS_RESPONSE.cancelled,
      card: null,
      securePayment: false,
    });
  }

  /** Decides what the card's issuer says; the challenge card first asks for its 3DS code. */
  async function chargeCard(
    session: PaymentSession,
    card: Card,
    authenticated: boolean,
  ): Promise<Screen> {
    if (session.forcedDecline || card.number === TEST_CARDS.declined) {
      return complete(session, { dsResponse: DS_RESPONSE.declined, card, securePayment: false });
    }
    if (card.number === TEST_CARDS.challenge && !authenticated) {
      session.step = 'challenge';
      session.card = card;
      sessions.set(session.id, session);
      const record = orders.get(
        orderKey(session.merchant.merchantCode, session.terminal, session.order),
      );
      if (record) record.status = 'challenge';
      return { kind: 'challenge', session };
    }
    return complete(session, { dsResponse: DS_RESPONSE.authorised, card, securePayment: true });
  }

  /** POST of the card page. The card number is only held in memory and never logged. */
  async function submitCard(id: string, body: FormBody): Promise<Screen> {
    const session = liveSession(id, 'card');
    if (!session) return lostSession;
    if (text(body, 'action') === 'cancel') return cancel(session);

    const t = MESSAGES[session.language];
    const number = digitsOnly(text(body, 'card_number') ?? '');
    const expiry = parseExpiry(text(body, 'expiry') ?? '', options.now());
    const errors: CardFormErrors = {};
    if (!isLuhnValid(number)) errors.cardNumber = t.invalidCardNumber;
    if (!expiry) errors.expiry = t.invalidExpiry;
    if (!isValidCvc(text(body, 'cvc') ?? '')) errors.cvc = t.invalidCvc;
    if (!expiry || Object.keys(errors).length > 0) return { kind: 'card', session, errors };

    // The portal's toggle may also arrive as an unsigned field of this form.
    if (asksForDecline(text(body, 'Ds_Merchant_MerchantData'))) session.forcedDecline = true;
    return chargeCard(session, { number, expiry, brand: brandOf(number) }, false);
  }

  async function submitSavedCard(id: string, body: FormBody): Promise<Screen> {
    const session = liveSession(id, 'saved-card');
    if (!session?.card) return lostSession;
    if (text(body, 'action') === 'cancel') return cancel(session);
    return chargeCard(session, session.card, false);
  }

  /** A Spanish mobile number (6xx or 7xx, 9 digits), with or without +34 / 0034 and spaces. */
  function spanishMobile(value: string): string | null {
    const digits = value.replace(/[\s.-]/g, '').replace(/^(\+34|0034)/, '');
    return /^[67]\d{8}$/.test(digits) ? digits : null;
  }

  /** POST of Bizum's first page: the phone number, then the "app" page. */
  async function submitBizumPhone(id: string, body: FormBody): Promise<Screen> {
    const session = liveSession(id, 'bizum');
    if (!session) return lostSession;
    if (text(body, 'action') === 'cancel') return cancel(session);
    const typed = (text(body, 'phone') ?? '').slice(0, 32);
    const phone = spanishMobile(typed);
    if (!phone) return { kind: 'bizum', session, invalid: true, phone: typed };
    session.phone = phone;
    session.step = 'bizum-app';
    const record = orders.get(
      orderKey(session.merchant.merchantCode, session.terminal, session.order),
    );
    // Waiting for the customer's bank app: the query service reports it as authenticating.
    if (record) record.status = 'challenge';
    return { kind: 'bizum-app', session };
  }

  /** POST of Bizum's "app" page: accepted (0000), rejected in the app (9966) or cancelled (9915). */
  async function submitBizumApp(id: string, body: FormBody): Promise<Screen> {
    const session = liveSession(id, 'bizum-app');
    if (!session) return lostSession;
    const action = text(body, 'action');
    if (action === 'cancel') return cancel(session);
    const declined = action !== 'pay' || session.forcedDecline;
    return complete(session, {
      dsResponse: declined ? DS_RESPONSE.bizumDeclined : DS_RESPONSE.authorised,
      card: null,
      securePayment: !declined,
    });
  }

  async function submitChallenge(id: string, body: FormBody): Promise<Screen> {
    const session = liveSession(id, 'challenge');
    if (!session?.card) return lostSession;
    if (text(body, 'action') === 'cancel') return cancel(session);
    if ((text(body, 'code') ?? '').trim() !== CHALLENGE_CODE) {
      return complete(session, {
        dsResponse: DS_RESPONSE.authenticationFailed,
        card: session.card,
        securePayment: false,
      });
    }
    return chargeCard(session, session.card, true);
  }

  /**
   * Ends the payment: remembers the outcome, issues a card reference if one was asked for,
   * notifies the merchant (retrying) and only then sends the browser back, as Redsys' synchronous
   * notification does.
   */
  async function complete(session: PaymentSession, outcome: Outcome): Promise<Screen> {
    session.step = 'done';
    sessions.delete(session.id);
    const now = options.now();
    const authorised = isAuthorised(outcome.dsResponse);
    const authorisationCode = authorised ? newAuthorisationCode() : '';
    const record = orders.get(
      orderKey(session.merchant.merchantCode, session.terminal, session.order),
    );
    if (record) {
      Object.assign(record, {
        status: 'done',
        dsResponse: outcome.dsResponse,
        authorisationCode,
        securePayment: outcome.securePayment,
        updatedAt: now,
      });
    }

    let reference: string | null = null;
    let cofTxnid: string | null = null;
    if (authorised && session.saveCard && outcome.card) {
      reference = randomBytes(20).toString('hex');
      cofTxnid = newCofTxnid();
      savedCards.set(reference, {
        ...outcome.card,
        merchantCode: session.merchant.merchantCode,
        cofTxnid,
      });
    }

    const { date, hour } = madridDateTime(now);
    const params: Record<string, string> = {
      Ds_Date: encodeURIComponent(date),
      Ds_Hour: encodeURIComponent(hour),
      Ds_SecurePayment: outcome.securePayment ? '1' : '0',
    };
    // Bizum's notification is a card's without card data (redsys-notes §3): no number, brand nor
    // country; the mobile number is not sent either (no source says Redsys sends it).
    if (reference && outcome.card) {
      params.Ds_Card_Number = maskCardNumber(outcome.card.number);
      params.Ds_ExpiryDate = outcome.card.expiry;
      params.Ds_Merchant_Identifier = reference;
      if (cofTxnid) params.Ds_Merchant_Cof_Txnid = cofTxnid;
    }
    if (!session.bizum) params.Ds_Card_Country = '724';
    Object.assign(params, {
      Ds_Amount: session.amount,
      Ds_Currency: session.currency,
      Ds_Order: session.order,
      Ds_MerchantCode: session.merchant.merchantCode,
      Ds_Terminal: padTerminal(String(Number(session.terminal))),
      Ds_Response: outcome.dsResponse,
      Ds_MerchantData: encodeURIComponent(session.merchantData),
      Ds_TransactionType: session.transactionType,
      Ds_ConsumerLanguage: String(Number(session.consumerLanguage) || 1),
      Ds_AuthorisationCode: authorisationCode,
    });
    if (outcome.card?.brand) params.Ds_Card_Brand = outcome.card.brand;
    if (outcome.card) params.Ds_ProcessedPayMethod = PROCESSED_PAY_METHOD.card;
    if (session.bizum) params.Ds_ProcessedPayMethod = PROCESSED_PAY_METHOD.bizum;

    log.info({ order: session.order, dsResponse: outcome.dsResponse }, 'payment completed');
    if (session.merchantUrl) {
      const form = createNotification({
        version: session.version,
        secret: session.merchant.secretKey,
        params,
      });
      const notification: NotificationRecord = {
        order: session.order,
        merchantCode: session.merchant.merchantCode,
        terminal: params.Ds_Terminal ?? '',
        url: session.merchantUrl,
        dsResponse: outcome.dsResponse,
        form,
        params: { ...params },
        resend: false,
        delivered: false,
        attempts: [],
      };
      notifications.push(notification);
      await deliverNotification(notification, notifierSettings, log);
    }
    return {
      kind: 'done',
      language: session.language,
      dsResponse: outcome.dsResponse,
      authorised,
      redirectTo: authorised ? session.urlOk : session.urlKo,
    };
  }

  /** The payment of an order as the query service reports it: S/A while a page is open, then F. */
  function paymentOperation(record: OrderRecord): QueryOperation {
    const { date, hour } = queryDateTime(record.updatedAt);
    // S: the card page is open ("solicitada"); A: the 3DS challenge is ("autenticando").
    const state = record.status === 'done' ? 'F' : record.status === 'challenge' ? 'A' : 'S';
    return {
      merchantCode: record.merchant.merchantCode,
      terminal: record.terminal,
      order: record.order,
      transactionType: record.transactionType,
      date,
      hour,
      amountCents: Number(record.amount),
      currency: record.currency,
      state,
      ...(record.dsResponse ? { response: record.dsResponse } : {}),
      ...(record.authorisationCode ? { authorisationCode: record.authorisationCode } : {}),
    };
  }

  function refundOperations(record: OrderRecord): QueryOperation[] {
    return record.refunds.map((refund) => ({
      ...paymentOperation(record),
      ...queryDateTime(refund.at),
      transactionType: '3',
      amountCents: refund.amountCents,
      state: 'F',
      response: REFUND_APPROVED,
      authorisationCode: refund.authorisationCode,
    }));
  }

  /**
   * The SOAP query service `consultaOperaciones` (POST /apl02/services/SerClsWSConsulta), as
   * Redsys answers it (redsys-notes §1.2): `Transaction` gives the order's operations of one type,
   * `Monitor` all of them (the payment and its refunds); signed with the order's key. XML0024 for
   * an order it never received, XML0023 for a bad signature (or a merchant it does not know, whose
   * key it cannot check), XML0015 for an order not starting with 4 digits.
   */
  function queryOperations(soap: string): string {
    const read = readQueryRequest(soap);
    if (!read.ok) return createQueryAnswer({ errorCode: read.code });
    const merchant = findMerchant(read.merchantCode, read.terminal);
    if (
      !merchant ||
      !verifyQuerySignature(merchant.secretKey, read.order, read.version, read.signature)
    ) {
      return createQueryAnswer({ errorCode: QUERY_BAD_SIGNATURE });
    }
    const record = orders.get(orderKey(merchant.merchantCode, read.terminal, read.order));
    const all = record ? [paymentOperation(record), ...refundOperations(record)] : [];
    const operations =
      read.message === 'Monitor'
        ? all
        : all.filter((operation) => operation.transactionType === read.transactionType);
    if (operations.length === 0) return createQueryAnswer({ errorCode: QUERY_NOT_FOUND });
    return createQueryAnswer({ secret: merchant.secretKey, order: read.order, operations });
  }

  /**
   * A refund through the REST service (POST /sis/rest/trataPeticionREST, JSON, type 3 on the
   * original order; redsys-notes §2). Refunds of an order add up to at most its amount. Answers
   * are Redsys': a signed message with Ds_Response 0900 (refunded) or 0950 (the original payment
   * was not authorised), or an unsigned {errorCode} (SIS0054 no such payment, SIS0057 more than
   * what is left, SIS0042 bad signature...).
   */
  function refund(body: FormBody): RestAnswer {
    const read = readSignedRequest(body);
    if (!read.ok) return { errorCode: read.code };
    const { merchant, version, params } = read;
    const param = (name: string) => getParameter(params, name);
    if (param('Ds_Merchant_TransactionType') !== '3') return { errorCode: 'SIS0023' };
    const amount = param('Ds_Merchant_Amount');
    if (!amount) return { errorCode: 'SIS0018' };
    if (!/^\d{1,12}$/.test(amount) || Number(amount) <= 0) return { errorCode: 'SIS0019' };
    const currency = param('Ds_Merchant_Currency');
    if (!currency) return { errorCode: 'SIS0015' };
    const terminal = param('Ds_Merchant_Terminal') ?? '';
    const order = param('Ds_Merchant_Order') ?? '';
    const record = orders.get(orderKey(merchant.merchantCode, terminal, order));
    if (!record || record.transactionType !== '0') return { errorCode: REFUND_ERRORS.noPayment };
    if (currency !== record.currency) return { errorCode: 'SIS0027' };

    const now = options.now();
    const answer = (response: string, authorisationCode: string) =>
      createRestResponse({
        version,
        secret: merchant.secretKey,
        params: {
          Ds_Amount: amount,
          Ds_Currency: currency,
          Ds_Order: order,
          Ds_MerchantCode: merchant.merchantCode,
          Ds_Terminal: record.terminal,
          Ds_Response: response,
          Ds_AuthorisationCode: authorisationCode,
          Ds_TransactionType: '3',
          Ds_SecurePayment: '0',
          Ds_Language: '1',
          Ds_MerchantData: '',
          Ds_Card_Country: '724',
        },
      });
    if (record.status !== 'done' || !isAuthorised(record.dsResponse ?? '')) {
      return answer(DS_RESPONSE.refundNotAllowed, '');
    }
    const refunded = record.refunds.reduce((sum, r) => sum + r.amountCents, 0);
    if (refunded + Number(amount) > Number(record.amount)) {
      return { errorCode: REFUND_ERRORS.amountTooHigh };
    }
    const authorisationCode = newAuthorisationCode();
    record.refunds.push({ amountCents: Number(amount), authorisationCode, at: now });
    log.info({ order, amount }, 'refund applied');
    return answer(REFUND_APPROVED, authorisationCode);
  }

  /**
   * A merchant-initiated charge of a saved card through the REST service (redsys-notes §4.2): type
   * 0 on a new order with DS_MERCHANT_IDENTIFIER, DS_MERCHANT_EXCEP_SCA=MIT and
   * DS_MERCHANT_DIRECTPAYMENT=true; no page, no notification, the answer is synchronous. The card
   * saved with TEST_CARDS.mitDeclined (or a demo reference "<prefix>decline...") is declined with
   * 0190; every other saved card is authorised. Unsigned errors as Redsys: SIS0617 (MIT without a
   * reference), SIS0616 (another exemption), SIS0466 (a reference not this merchant's), SIS0051 (a
   * repeated order).
   */
  function mitCharge(
    merchant: SimulatorMerchant,
    version: SignatureVersion,
    params: MerchantParameters,
  ): RestAnswer {
    const param = (name: string) => getParameter(params, name);
    const order = param('Ds_Merchant_Order') ?? '';
    const terminal = param('Ds_Merchant_Terminal') ?? '';
    const amount = param('Ds_Merchant_Amount');
    const currency = param('Ds_Merchant_Currency');
    if (!isValidOrderNumber(order)) return { errorCode: 'SIS0014' };
    if (!amount) return { errorCode: 'SIS0018' };
    if (!/^\d{1,12}$/.test(amount) || Number(amount) <= 0) return { errorCode: 'SIS0019' };
    if (!currency) return { errorCode: 'SIS0015' };
    if (currency !== '978') return { errorCode: 'SIS0027' };
    const exception = param('Ds_Merchant_Excep_Sca');
    if (exception !== 'MIT') return { errorCode: MIT_ERRORS.badException };
    const identifier = param('Ds_Merchant_Identifier');
    if (!identifier || identifier === 'REQUIRED') return { errorCode: MIT_ERRORS.noCofData };
    // Without DIRECTPAYMENT=true Redsys would want the customer (3DS): not possible here.
    if (param('Ds_Merchant_DirectPayment') !== 'true') return { errorCode: MIT_ERRORS.noCofData };
    const saved = findSavedCard(identifier, merchant.merchantCode);
    if (!saved) return { errorCode: MIT_ERRORS.unknownReference };
    const txnid = param('Ds_Merchant_Cof_Txnid');
    if (saved.cofTxnid && txnid && txnid !== saved.cofTxnid) {
      return { errorCode: MIT_ERRORS.noCofData };
    }
    const key = orderKey(merchant.merchantCode, terminal, order);
    if (orders.has(key)) return { errorCode: MIT_ERRORS.repeatedOrder };

    const now = options.now();
    const dsResponse =
      saved.number === TEST_CARDS.mitDeclined ? DS_RESPONSE.declined : DS_RESPONSE.authorised;
    const authorisationCode = isAuthorised(dsResponse) ? newAuthorisationCode() : '';
    orders.set(key, {
      merchant,
      order,
      terminal: padTerminal(String(Number(terminal))),
      amount,
      currency,
      transactionType: '0',
      status: 'done',
      dsResponse,
      authorisationCode,
      securePayment: false,
      updatedAt: now,
      refunds: [],
    });
    mitCharges.push({
      order,
      merchantCode: merchant.merchantCode,
      amountCents: Number(amount),
      identifier,
      dsResponse,
      at: now.toISOString(),
    });
    log.info({ order, amount, dsResponse }, 'merchant-initiated charge');
    const { date, hour } = madridDateTime(now);
    return createRestResponse({
      version,
      secret: merchant.secretKey,
      params: {
        Ds_Date: encodeURIComponent(date),
        Ds_Hour: encodeURIComponent(hour),
        Ds_Amount: amount,
        Ds_Currency: currency,
        Ds_Order: order,
        Ds_MerchantCode: merchant.merchantCode,
        Ds_Terminal: padTerminal(String(Number(terminal))),
        Ds_Response: dsResponse,
        Ds_AuthorisationCode: authorisationCode,
        Ds_TransactionType: '0',
        Ds_SecurePayment: '0',
        Ds_Language: '1',
        Ds_MerchantData: '',
        Ds_Card_Country: '724',
        Ds_Card_Number: maskCardNumber(saved.number),
        Ds_Merchant_Identifier: identifier,
        ...(saved.brand ? { Ds_Card_Brand: saved.brand } : {}),
        Ds_ProcessedPayMethod: '1',
      },
    });
  }

  /**
   * POST /sis/rest/trataPeticionREST: a refund (type 3) or a merchant-initiated charge of a saved
   * card (type 0 with a reference and the MIT exemption); other types are SIS0023.
   */
  function restOperation(body: FormBody): RestAnswer {
    const read = readSignedRequest(body);
    if (!read.ok) return { errorCode: read.code };
    const param = (name: string) => getParameter(read.params, name);
    // A payment over REST needs a saved card and the MIT exemption; a plain one stays SIS0023.
    const merchantInitiated =
      param('Ds_Merchant_TransactionType') === '0' &&
      (param('Ds_Merchant_Excep_Sca') !== undefined ||
        param('Ds_Merchant_Identifier') !== undefined);
    if (merchantInitiated) return mitCharge(read.merchant, read.version, read.params);
    return refund(body);
  }

  /** Sends the last notification of an order again, byte for byte, like a Redsys retry. */
  async function resendNotification(order: string): Promise<NotificationRecord | null> {
    const last = notifications.findLast((notification) => notification.order === order);
    if (!last) return null;
    const again: NotificationRecord = { ...last, resend: true, delivered: false, attempts: [] };
    notifications.push(again);
    await deliverNotification(again, notifierSettings, log);
    return again;
  }

  return {
    openPayment,
    submitCard,
    submitSavedCard,
    submitChallenge,
    submitBizumPhone,
    submitBizumApp,
    queryOperations,
    refund,
    restOperation,
    listMitCharges: () => [...mitCharges],
    resendNotification,
    listNotifications: (order?: string) =>
      notifications.filter((notification) => !order || notification.order === order),
    clearNotifications: () => {
      notifications.length = 0;
      mitCharges.length = 0;
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
