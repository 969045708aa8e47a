import { CheckinScreen } from '@/features/checkout/components/checkin-screen';

/** Spec §2 "Payment confirmation" (/payment-checkin?invoiceId=..&amount=..). */
export function Component() {
  return <CheckinScreen />;
}
