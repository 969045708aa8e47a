import { BalanceHero } from '@/features/balance/components/balance-hero';
import { HomeScreen } from '@/features/home/components/home-screen';

/** Spec §2 "Home", opening with what is owed (PRODUCT.md "Screens"). */
export function Component() {
  return <HomeScreen hero={<BalanceHero showPaymentsLink />} />;
}
