/**
 * How much one payment may name (`POST /redsys/init-payment` and its preview, redsys.ts), free of
 * zod so that the web app can stop a selection at it without importing the schemas.
 */

/** Instalments (`payment_ids`) or invoices (`multiple_invoices`) in one payment, at most. */
export const maxPaymentIds = 200;
