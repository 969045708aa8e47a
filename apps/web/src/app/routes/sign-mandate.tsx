import { useSearchParams } from 'react-router';
import { SignMandateScreen } from '@/features/payment-methods/components/sign-mandate-screen';

/** Sign the SEPA mandate of a saved bank account (/firmar-mandato?id=<method id>; issue 23, item 6). */
export function Component() {
  const [search] = useSearchParams();
  const id = search.get('id');
  return <SignMandateScreen key={id ?? ''} id={id} />;
}
