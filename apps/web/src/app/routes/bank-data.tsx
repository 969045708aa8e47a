import { BankTransferScreen } from '@/features/payment-methods/components/bank-transfer-screen';

/** Spec §2 "Bank data" (/datos-bancarios): the account to pay by transfer, read only. */
export function Component() {
  return <BankTransferScreen variant="data" />;
}
