import { z } from 'zod';
import { FieldError } from './errors.ts';
import { ZBatchResult, ZIsoDate } from './admin-ingestion.ts';
import { returnFeeMaxCents, returnReasonPattern } from './returned-debits.ts';
import type { TRouteDef } from './routes.ts';

/** Returns of one call: a bank's return file holds a day's returns, far fewer than this. */
export const returnedDebitsBatchMax = 1_000;
export { returnFeeMaxCents };

/** One direct debit the bank returned: keyed by the instalment and the return date. */
export const ZReturnedDebitReport = z.strictObject({
  invoice_id: z
    .string(FieldError.required)
    .trim()
    .min(1, FieldError.required)
    .max(64, FieldError.tooLong),
  seq: z
    .number(FieldError.invalidType)
    .int(FieldError.invalidType)
    .min(1, FieldError.tooSmall)
    .max(1000, FieldError.tooBig),
  return_date: ZIsoDate,
  /** The SEPA R-transaction reason (ISO 20022), e.g. `AM04` insufficient funds. */
  reason_code: z
    .string(FieldError.required)
    .trim()
    .regex(returnReasonPattern, FieldError.invalidFormat)
    .meta({ examples: ['AM04', 'MD06'] }),
  /** What the bank charged for the return, integer cents (0 when nothing). */
  fee_cents: z
    .number(FieldError.invalidType)
    .int(FieldError.invalidType)
    .min(0, FieldError.tooSmall)
    .max(returnFeeMaxCents, FieldError.tooBig),
});
export type TReturnedDebitReport = z.infer<typeof ZReturnedDebitReport>;

export const ZReturnedDebitsRequest = z
  .strictObject({
    returns: z
      .array(ZReturnedDebitReport, FieldError.required)
      .min(1, FieldError.required)
      .max(returnedDebitsBatchMax, FieldError.tooBig),
  })
  .meta({
    examples: [
      {
        returns: [
          {
            invoice_id: 'FV-2026-000098',
            seq: 1,
            return_date: '2026-03-09',
            reason_code: 'AM04',
            fee_cents: 350,
          },
        ],
      },
    ],
  });
export type TReturnedDebitsRequest = z.input<typeof ZReturnedDebitsRequest>;

/** The provider reports returned direct debits, under `/{tenant}/api/1.0/admin/...`. */
export const returnedDebitRoutes = {
  reportReturnedDebits: {
    method: 'POST',
    path: '/admin/instalments/returns',
    auth: 'apiKey',
    summary:
      'Report direct debits the bank returned (reason code, bank fee): the instalments show as returned and their customers are told once (all or nothing, idempotent)',
    body: ZReturnedDebitsRequest,
    response: ZBatchResult,
  },
} as const satisfies Record<string, TRouteDef>;
