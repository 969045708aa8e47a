import { z } from 'zod';
import { ZPositiveAmount } from './common.ts';
import { FieldError } from './errors.ts';

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
  payment_ids: z.array(z.string().max(64)).max(200).optional(),
  currency: z.literal('EUR').optional(),
  success_url: z.string().max(2048).optional(),
  error_url: z.string().max(2048).optional(),
  user_id: z.string().max(64).optional(),
  multiple_invoices: z.array(z.string().max(64)).max(200).optional(),
  is_multiple_payment: z.boolean().optional(),
  /** Ask the gateway to keep the card (Redsys tokenisation) for later payments. */
  save_card: z.boolean().optional(),
  /** A saved card (payment method id) to pay with. */
  card_id: z.string().max(64).optional(),
  /** The customer's language for the gateway's pages. */
  language: z.enum(['es', 'ca', 'en', 'eu']).optional(),
  /** The side menu's testing toggle: the local simulator declines. Ignored by real gateways. */
  simulate_decline: z.boolean().optional(),
});
export type TInitPaymentRequest = z.infer<typeof ZInitPaymentRequest>;

export const ZRedsysParams = z.object({
  Ds_SignatureVersion: z.string(),
  Ds_MerchantParameters: z.string(),
  Ds_Signature: z.string(),
});
export type TRedsysParams = z.infer<typeof ZRedsysParams>;

export const ZInitPaymentResponse = z.object({
  success: z.boolean(),
  payment_id: z.string(),
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
  /** When the attempt was created and settled (ISO 8601). */
  created_at: z.string(),
  settled_at: z.string().nullable(),
  /** Set when (part of) this payment was for instalments already paid. */
  refund: ZPaymentRefund.nullable(),
});
export type TPaymentStatusResponse = z.infer<typeof ZPaymentStatusResponse>;
