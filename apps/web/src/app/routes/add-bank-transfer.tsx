import { BankTransferScreen } from '@/features/payment-methods/components/bank-transfer-screen';

/** Spec §2 "Add bank transfer" (/add-bank-transfer). */
export function Component() {
  return <BankTransferScreen variant="add" />;
}
