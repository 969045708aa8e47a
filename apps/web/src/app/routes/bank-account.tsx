import { useSearchParams } from 'react-router';
import { BankAccountViewScreen } from '@/features/payment-methods/components/bank-account-view-screen';

/** Spec §2 "Bank account view" (/bank-account?id=<method id>). */
export function Component() {
  const [search] = useSearchParams();
  const id = search.get('id');
  // Keyed by id: another account starts afresh (edit mode, dialogs).
  return <BankAccountViewScreen key={id ?? ''} id={id} />;
}
