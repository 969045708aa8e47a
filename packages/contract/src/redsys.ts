import { z } from 'zod';
import { languages } from './languages.ts';
import { ZPositiveAmount } from './common.ts';
import { FieldError } from './errors.ts';
import { ZPaymentStatus } from './invoices.ts';
import { maxPaymentIds } from './payment-limits.ts';

/**
 * Spec §3 "Checkin methods", and Bizum (through Redsys, issue 23) where the tenant takes it.
 */
export const ZCheckinMethod = z.enum(['credit_card', 'paypal', 'bizum']);
export type TCheckinMethod = z.infer<typeof ZCheckinMethod>;

/**
 * `POST /redsys/init-payment` (spec §7). What to pay is either one invoice (`invoice_id`: all its
 * unpaid instalments), several invoices (`multiple_invoices`), or chosen instalments
 * (`payment_ids`). The server computes the amount; the client's `amount` is only checked against
 * it. `success_url`/`error_url` are accepted for compatibility and ignored: the gateway returns to
 * the tenant's own result page (never to a URL a client chose).
 */
export const ZInitPaymentRequest = z.object({
  amount: ZPositiveAmount,
  description: z.string().max(125, FieldError.tooLong).optional(),
  invoice_id: z.string().min(1, FieldError.required).max(64).optional(),
  payment_id: z.string().max(64).optional(),
  payment_ids: z.array(z.string().max(64)).max(maxPaymentIds).optional(),
  currency: z.literal('EUR').optional(),
  success_url: z.string().max(2048).optional(),
  error_url: z.string().max(2048).optional(),
  user_id: z.string().max(64).optional(),
  multiple_invoices: z.array(z.string().max(64)).max(maxPaymentIds).optional(),
  is_multiple_payment: z.boolean().optional(),
  /** Ask the gateway to keep the card (Redsys tokenisation) for later payments. */
  save_card: z.boolean().optional(),
  /** A saved card (payment method id) to pay with. */
  card_id: z.string().max(64).optional(),
  /** The customer's language for the gateway's pages. */
  language: z.enum(languages).optional(),
  /**
   * The method chosen (default the card); `paypal` and `bizum` only where the tenant takes them.
   * Bizum keeps no card: `save_card` and `card_id` with it are a 422 `invalid_value`.
   */
  method: ZCheckinMethod.optional(),
  /** The side menu's testing toggle: the local simulator declines. Ignored by real gateways. */
  simulate_decline: z.boolean().optional(),
});
export type TInitPaymentRequest = z.infer<typeof ZInitPaymentRequest>;

/**
 * `POST /redsys/checkout-preview`: what the payment confirmation shows before the customer starts
 * (PRODUCT.md "Screens"): the same targets as the start (one invoice, several invoices, or chosen
 * instalments), answered with the amount and the instalments the SERVER computed, never the
 * address's `amount`. An unknown or another customer's target is a 404; a paid or cancelled one a
 * 422 `not_payable` (a stale tab shows it as such).
 */
export const ZCheckoutPreviewRequest = z.object({
  invoice_id: z.string().min(1, FieldError.required).max(64).optional(),
  multiple_invoices: z.array(z.string().max(64)).max(maxPaymentIds).optional(),
  payment_ids: z.array(z.string().max(64)).max(maxPaymentIds).optional(),
});
export type TCheckoutPreviewRequest = z.infer<typeof ZCheckoutPreviewRequest>;

/** One instalment about to be paid: the invoice's number, its due date (yyyymmdd) and amount. */
export const ZCheckoutInstalment = z.object({
  payment_id: z.string(),
  invoice_id: z.string(),
  seq: z.number().int(),
  due_date: z.string(),
  amount: z.number(),
  overdue: z.boolean(),
  /**
   * The instalment today, as the payments list shows it (one derivation on the server): `returned`
   * ("Devuelto") for a returned direct debit whatever its due date, else `overdue` or `pending`.
   */
  status: ZPaymentStatus,
  /**
   * A returned direct debit's bank fee paid with the instalment (the tenant charges it), included
   * in the preview's `amount`; absent when there is none.
   */
  fee: z.number().optional(),
});
export type TCheckoutInstalment = z.infer<typeof ZCheckoutInstalment>;

export const ZCheckoutPreviewResponse = z.object({
  amount: z.number(),
  currency: z.literal('EUR'),
  instalments: z.array(ZCheckoutInstalment),
  /**
   * The methods this tenant takes, in order: `credit_card` when its card gateway is configured,
   * `paypal` only when the tenant configures PayPal (no tenant can yet: it never appears),
   * `bizum` when the tenant's `redsys-pay-methods` include Bizum's `z`.
   */
  methods: z.array(ZCheckinMethod),
  /** The current date (YYYY-MM-DD) and time (HH:MM) in the tenant's time zone (Europe/Madrid). */
  date: z.string(),
  time: z.string(),
});
export type TCheckoutPreviewResponse = z.infer<typeof ZCheckoutPreviewResponse>;

export const ZRedsysParams = z.object({
  Ds_SignatureVersion: z.string(),
  Ds_MerchantParameters: z.string(),
  Ds_Signature: z.string(),
});
export type TRedsysParams = z.infer<typeof ZRedsysParams>;

export const ZInitPaymentResponse = z.object({
  success: z.boolean(),
  payment_id: z.string(),
  /** The gateway's order number: the operation id the customer is shown ("Operación"). */
  order_id: z.string(),
  redsys_params: ZRedsysParams,
  url: z.string(),
  message: z.string(),
});
export type TInitPaymentResponse = z.infer<typeof ZInitPaymentResponse>;

export const ZPaymentStatusParams = z.object({ id: z.string().min(1).max(64) });

/**
 * The refund of what an authorised payment charged for instalments that were already paid (a late
 * or duplicate payment): on its way to the card (`pending`), `refunded`, waiting for the
 * provider's team (`review`), or dealt with by them (`resolved`).
 */
export const ZPaymentRefund = z.object({
  amount: z.number(),
  status: z.enum(['pending', 'refunded', 'review', 'resolved']),
});
export type TPaymentRefund = z.infer<typeof ZPaymentRefund>;

export const ZPaymentStatusResponse = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  /**
   * `superseded`: the customer started a new payment of the same instalments before this one was
   * answered (Back from the gateway, a closed tab). If the gateway authorises it after all, it
   * becomes `paid`, with a `refund` of what was already paid.
   */
  status: z.enum(['pending', 'paid', 'failed', 'superseded']),
  amount: z.number(),
  invoices: z.array(z.string()),
  card_saved: z.boolean(),
  /**
   * Why a failed attempt failed, from the gateway's answer (Ds_Response): `declined` by the card's
   * bank (0101-0899, e.g. 0190), `cancelled` by the customer on the gateway's page (9915), or an
   * `error` (anything else, or no answer at all). Null unless `status` is `failed`.
   */
  failure: z.enum(['declined', 'cancelled', 'error']).nullable(),
  /** When the attempt was created and settled (ISO 8601). */
  created_at: z.string(),
  settled_at: z.string().nullable(),
  /** When it settled (else was created), as YYYY-MM-DD and HH:MM in Europe/Madrid. */
  date: z.string(),
  time: z.string(),
  /** Set when (part of) this payment was for instalments already paid. */
  refund: ZPaymentRefund.nullable(),
  /** How the customer paid (chose to pay): the card (default), Bizum or PayPal. */
  method: ZCheckinMethod.optional(),
});
export type TPaymentStatusResponse = z.infer<typeof ZPaymentStatusResponse>;
