import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TCheckoutPreviewRequest } from '@portal/contract/redsys';
import { ApiError, apiRequest, type ApiResponse } from '@/lib/api-client';
import type { CheckinTarget } from '../utils/checkin-query';

export type CheckoutPreview = ApiResponse<'checkoutPreview'>;

/** What the confirmation asks the server about: the same target the start pays. */
export function previewBody(target: CheckinTarget): TCheckoutPreviewRequest {
  if (target.kind === 'payments') return { payment_ids: target.paymentIds };
  if (target.invoiceIds.length === 1) return { invoice_id: target.invoiceIds[0] ?? '' };
  return { multiple_invoices: target.invoiceIds };
}

/**
 * Why the preview has nothing to show: `paid` (422 not_payable: paid or cancelled meanwhile, a
 * stale tab), `notFound` (404: unknown or not this customer's), or `failed` (anything else).
 */
export type PreviewErrorKind = 'paid' | 'partlyPaid' | 'notFound' | 'failed';

/**
 * Of several instalments or invoices, "not payable" may be one of them only: the server refuses
 * the whole choice, and "nothing left to pay" told a customer still owing the rest they owed
 * nothing (session 39). `several`: the choice had more than one.
 */
export function previewErrorKind(error: unknown, several = false): PreviewErrorKind {
  const kind = previewErrorKindOf(error);
  return kind === 'paid' && several ? 'partlyPaid' : kind;
}

function previewErrorKindOf(error: unknown): PreviewErrorKind {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 404) return 'notFound';
  const codes = Object.values(error.errors ?? {}).flat();
  if (error.status === 422 && codes.includes('not_payable')) return 'paid';
  return 'failed';
}

/**
 * The amount and instalments as the server computes them now (review #7, #8). Always fetched
 * fresh when the screen opens or comes back into view: a stale total is what this call prevents.
 */
export const checkoutPreviewQueryOptions = (target: CheckinTarget) =>
  queryOptions({
    queryKey: ['checkout', 'preview', target],
    queryFn: ({ signal }) => apiRequest('checkoutPreview', { body: previewBody(target), signal }),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: 'always',
    // A refusal is an answer; only a failure to get one is worth asking again.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export function useCheckoutPreview(target: CheckinTarget) {
  return useQuery(checkoutPreviewQueryOptions(target));
}
