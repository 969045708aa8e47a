import { z } from 'zod';

/*
 * Auto-pay with the card on file (issue 23, item 2): the customer lets one saved card pay each
 * instalment on its due date; the tenant allows it or not. Amounts in integer cents, dates
 * yyyymmdd.
 */

/** Why a saved card cannot pay by itself. */
export const ZAutoPayCardProblem = z.enum([
  /**
   * Saved before the portal kept the scheme's transaction id of its first operation
   * (Ds_Merchant_Cof_Txnid): Redsys cannot charge it without the customer. Saving it again fixes it.
   */
  'no_cof_txnid',
  /** Past its expiry month. */
  'expired',
]);
export type TAutoPayCardProblem = z.infer<typeof ZAutoPayCardProblem>;

export const ZAutoPayCard = z.object({
  id: z.string(),
  /** It may be turned on; otherwise `problem` says why not. */
  eligible: z.boolean(),
  problem: ZAutoPayCardProblem.nullable(),
  enabled: z.boolean(),
});
export type TAutoPayCard = z.infer<typeof ZAutoPayCard>;

/** An instalment the card will pay on its due date. */
export const ZAutoPayInstalment = z.object({
  payment_id: z.string(),
  invoice_id: z.string(),
  seq: z.number().int(),
  due_date: z.string(),
  amount_cents: z.number().int(),
});
export type TAutoPayInstalment = z.infer<typeof ZAutoPayInstalment>;

/** `GET /user/auto-pay`, and the answer of turning it on or off. */
export const ZAutoPayResponse = z.object({
  /** The tenant offers auto-pay (the operator's setting); when false nothing is charged. */
  allowed: z.boolean(),
  /** How many days before a charge the customer is told by e-mail. */
  notice_days: z.number().int(),
  /** The card that pays, or null when auto-pay is off. */
  card_id: z.string().nullable(),
  /** The customer's saved cards, and whether each can pay by itself. */
  cards: z.array(ZAutoPayCard),
  /** Pending instalments due today or later that the card will pay (first 50), by due date. */
  instalments: z.array(ZAutoPayInstalment),
  /**
   * How many such instalments there are in all (`instalments` stops at 50): what "and N more"
   * counts from. Never fewer than `instalments`.
   */
  instalments_total: z.number().int().nonnegative(),
  /** The due date of the first of them, when the next charge happens. */
  next_charge_date: z.string().nullable(),
});
export type TAutoPayResponse = z.infer<typeof ZAutoPayResponse>;

export const ZAutoPayParams = z.object({ id: z.string().min(1).max(64) });

/** Turn auto-pay on with this card (and off on every other), or off. */
export const ZSetAutoPayRequest = z.object({ enabled: z.boolean() });
export type TSetAutoPayRequest = z.infer<typeof ZSetAutoPayRequest>;
