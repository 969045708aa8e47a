import { customerLimits } from '@portal/contract/customer-limits';
import { ApiError } from '@/lib/api-client';

export type LimitReached = {
  key: 'paymentMethods' | 'pendingRequests' | 'cardAttempts';
  max: number;
};

/** The cap a 409 says the customer reached (customer-limits.ts), or null for any other error. */
export function limitReached(error: unknown): LimitReached | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  switch (error.code) {
    case 'payment_method_limit':
      return { key: 'paymentMethods', max: customerLimits.paymentMethods };
    case 'pending_request_limit':
      return { key: 'pendingRequests', max: customerLimits.pendingRequests };
    case 'card_attempt_limit':
      return { key: 'cardAttempts', max: customerLimits.pendingCardAttempts };
    default:
      return null;
  }
}
