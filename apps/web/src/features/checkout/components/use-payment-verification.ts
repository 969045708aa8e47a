import { useCallback, useEffect, useState } from 'react';
import { getPaymentStatus } from '../api/get-payment-status';
import { type Verification, verifyPayment } from '../utils/payment-verification';

/**
 * Verifies one payment with the server (utils/payment-verification.ts) while the screen is shown;
 * `checkAgain` starts over after a time-out. Without an id there is nothing to verify.
 */
export function usePaymentVerification(paymentId: string | null): {
  verification: Verification | null;
  checkAgain: () => void;
} {
  const [round, setRound] = useState(0);
  const [result, setResult] = useState<{ key: string; verification: Verification } | null>(null);
  const key = `${paymentId ?? ''}#${round}`;

  useEffect(() => {
    if (!paymentId) return;
    const controller = new AbortController();
    verifyPayment({
      fetchStatus: (signal) => getPaymentStatus(paymentId, signal),
      signal: controller.signal,
    }).then(
      (verification) => setResult({ key, verification }),
      () => {
        // Aborted: the screen was left or the check started over.
      },
    );
    return () => controller.abort();
  }, [paymentId, key]);

  const checkAgain = useCallback(() => setRound((r) => r + 1), []);
  if (!paymentId) return { verification: null, checkAgain };
  // A result of an earlier round (or payment) no longer counts: verifying again.
  const verification = result?.key === key ? result.verification : { phase: 'verifying' as const };
  return { verification, checkAgain };
}
