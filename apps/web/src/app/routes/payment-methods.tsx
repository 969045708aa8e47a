import { PaymentMethodsScreen } from '@/features/payment-methods/components/payment-methods-screen';

/**
 * Spec §2 "Payment methods" (/metodos-de-pago). Its guard (spec §6: /unauthorized without a
 * token) is in the router.
 */
export function Component() {
  return <PaymentMethodsScreen />;
}
