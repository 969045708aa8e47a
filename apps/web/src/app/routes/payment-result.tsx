import { ResultScreen } from '@/features/checkout/components/result-screen';

/** Spec §2 "Payment result": /payment-checkout, /payment/success and /payment/error. */
export function Component() {
  return <ResultScreen />;
}
