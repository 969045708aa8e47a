import { z } from 'zod';
import { pageQueryFields } from './admin-paging.ts';
import { FieldError } from './errors.ts';
import {
  fiscalNoteMax,
  ZFiscalDataRequest,
  ZFiscalDataRequestParams,
  ZFiscalRequestStatus,
  ZFiscalValues,
} from './fiscal-data.ts';
import { hasUnsafeText } from './input-safety.ts';
import type { TRouteDef } from './routes.ts';

/**
 * The organisation's side of the fiscal data requests (fiscal-data.ts): list them and decide each,
 * under `/{tenant}/api/1.0/admin/fiscal-data-requests` with the tenant API key. Apart from the
 * customer calls so that the web app never ships these schemas.
 */

const exampleId = '7d1c3b1e-2a4f-4c39-9f5e-0b6a8d2e4c11';
const exampleAdminRequest = {
  id: exampleId,
  customer_code: 'C-000789',
  status: 'pending' as const,
  requested: {
    invoice_name: 'Soler Vidal Consultoria SL',
    nif: 'B12345674',
    address: 'Carrer Major 12, 2n 1a',
    city: 'Girona',
    country: 'España',
  },
  previous: {
    invoice_name: 'Marta Soler Vidal',
    nif: '12345678Z',
    address: 'Carrer Major 12, 2n 1a',
    city: 'Girona',
    country: 'España',
  },
  comment: 'Facturad a la sociedad a partir de ahora, por favor.',
  reason: '',
  created_at: '2026-11-26T10:15:00.000Z',
  closed_at: null,
};

/** A request as the organisation reviews it: what was asked and the data as it stood then. */
export const ZAdminFiscalDataRequest = ZFiscalDataRequest.extend({
  customer_code: z.string(),
  previous: ZFiscalValues,
}).meta({ examples: [exampleAdminRequest] });
export type TAdminFiscalDataRequest = z.infer<typeof ZAdminFiscalDataRequest>;

export const ZFiscalDataRequestsQuery = z.object({
  status: ZFiscalRequestStatus.optional().meta({
    description: 'Only requests in this state (`pending`: those waiting for a decision)',
    examples: ['pending'],
  }),
  ...pageQueryFields('Requests', exampleId),
});
export type TFiscalDataRequestsQuery = z.input<typeof ZFiscalDataRequestsQuery>;

export const ZAdminFiscalDataRequests = z
  .object({
    /** Newest first. */
    requests: z.array(ZAdminFiscalDataRequest),
    /** Pass as `before` for the next (older) page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ requests: [exampleAdminRequest], next_cursor: null }] });
export type TAdminFiscalDataRequests = z.infer<typeof ZAdminFiscalDataRequests>;

/** The organisation's decision: approve, or reject saying why (the customer reads the reason). */
export const ZFiscalDataDecision = z
  .discriminatedUnion(
    'decision',
    [
      z.strictObject({ decision: z.literal('approved') }),
      z.strictObject({
        decision: z.literal('rejected'),
        reason: z
          .string(FieldError.required)
          .trim()
          .min(1, { error: FieldError.required, abort: true })
          .max(fiscalNoteMax, { error: FieldError.tooLong, abort: true })
          .refine((v) => !hasUnsafeText(v), { error: FieldError.invalidCharacters, abort: true }),
      }),
    ],
    FieldError.invalidValue,
  )
  .meta({
    examples: [
      { decision: 'approved' },
      { decision: 'rejected', reason: 'El CIF no corresponde a la sociedad indicada.' },
    ],
  });
export type TFiscalDataDecision = z.input<typeof ZFiscalDataDecision>;

export const fiscalDataAdminRoutes = {
  listFiscalDataRequests: {
    method: 'GET',
    path: '/admin/fiscal-data-requests',
    auth: 'apiKey',
    summary:
      "Customers' requests to change their fiscal data, newest first; `status=pending` lists those waiting for a decision",
    querystring: ZFiscalDataRequestsQuery,
    response: ZAdminFiscalDataRequests,
  },
  decideFiscalDataRequest: {
    method: 'POST',
    path: '/admin/fiscal-data-requests/:id/decision',
    auth: 'apiKey',
    summary:
      'Approve a fiscal data request (the new data is applied to the customer) or reject it with a reason; a decided or withdrawn one is a 409',
    params: ZFiscalDataRequestParams,
    body: ZFiscalDataDecision,
    response: ZAdminFiscalDataRequest,
  },
} as const satisfies Record<string, TRouteDef>;
