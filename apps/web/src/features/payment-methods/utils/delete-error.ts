import { ApiError } from '@/lib/api-client';
import type { PaymentMethod } from './method-display';

export type DeleteErrorKind =
  'main' | 'pendingRequest' | 'inUse' | 'notFound' | 'network' | 'generic';

/**
 * Why a method could not be deleted. The API answers one code, 409 `method_in_use`, for the main
 * method, one with a pending request and one a payment in progress uses; what the screen knows of
 * the method tells the customer which.
 */
export function deleteErrorKind(
  error: unknown,
  method: Pick<PaymentMethod, 'is_main' | 'pending_request'>,
): DeleteErrorKind {
  if (!(error instanceof ApiError)) return 'generic';
  if (error.status === 0) return 'network';
  if (error.status === 404) return 'notFound';
  if (error.code === 'method_in_use') {
    if (method.is_main) return 'main';
    if (method.pending_request) return 'pendingRequest';
    return 'inUse';
  }
  return 'generic';
}
