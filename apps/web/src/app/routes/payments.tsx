import { PaymentListScreen } from '@/features/payments/components/payment-list-screen';

/** Spec §2 "Payments list" (/mis-pagos and its alias /pagos). */
export function Component() {
  return <PaymentListScreen />;
}
