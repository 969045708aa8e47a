import { ThreadsScreen } from '@/features/invoice-threads/components/threads-screen';

/** "Mis consultas" (issue 23, item 7): the customer's conversations about invoices. */
export function Component() {
  return <ThreadsScreen />;
}
