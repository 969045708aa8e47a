import { BalanceHero } from '@/features/balance/components/balance-hero';
import { PaymentListScreen } from '@/features/payments/components/payment-list-screen';

/** Spec §2 "Payments list" (/mis-pagos and its alias /pagos), opening with what is owed. */
export function Component() {
  return <PaymentListScreen hero={<BalanceHero />} />;
}
