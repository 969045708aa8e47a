import { useParams } from 'react-router';
import { ThreadScreen } from '@/features/invoice-threads/components/thread-screen';

/** One conversation about an invoice (issue 23, item 7). */
export function Component() {
  const { id = '' } = useParams();
  return <ThreadScreen key={id} threadId={id} />;
}
