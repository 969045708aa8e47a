import { apiRequest } from '@/lib/api-client';
import type { PaymentStatusAnswer } from '../utils/payment-verification';

/**
 * Spec §7 "/redsys/payment/{id}/status": the attempt's state, for its owner only (a foreign or
 * unknown id is a 404). Not cached: every check must reach the server.
 */
export async function getPaymentStatus(
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentStatusAnswer> {
  return apiRequest('paymentStatus', {
    params: { id: paymentId },
    ...(signal ? { signal } : {}),
  });
}
