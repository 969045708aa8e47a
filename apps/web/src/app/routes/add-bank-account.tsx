import { AddBankAccountScreen } from '@/features/payment-methods/components/add-bank-account-screen';

/** Spec §2 "Add bank account" (/add-bank-account). */
export function Component() {
  return <AddBankAccountScreen />;
}
