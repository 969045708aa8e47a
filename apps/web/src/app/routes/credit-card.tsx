import { useSearchParams } from 'react-router';
import { CardViewScreen } from '@/features/payment-methods/components/card-view-screen';

/** Spec §2 "Card view" (/credit-card?id=<method id>). */
export function Component() {
  const [search] = useSearchParams();
  const id = search.get('id');
  // Keyed by id: another card starts afresh (edit mode, dialogs).
  return <CardViewScreen key={id ?? ''} id={id} />;
}
