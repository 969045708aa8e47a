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
export const ZPaymentStatusResponse = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  status: z.enum(['pending', 'paid', 'failed']),
  amount: z.number(),
  invoices: z.array(z.string()),
  card_saved: z.boolean(),
  /** When the attempt was created and settled (ISO 8601). */
  created_at: z.string(),
  settled_at: z.string().nullable(),
});
export type TPaymentStatusResponse = z.infer<typeof ZPaymentStatusResponse>;
