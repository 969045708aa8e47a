import { useParams } from 'react-router';
import { InvoiceDetailScreen } from '@/features/invoices/components/invoice-detail-screen';

/** Spec §2 "Invoice detail" (/invoice-detail/{id}). */
export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: previous/next start each invoice afresh (scroll, download state).
  return <InvoiceDetailScreen key={id} invoiceId={id} />;
}
