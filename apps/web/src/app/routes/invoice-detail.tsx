import { useParams } from 'react-router';
import { InvoiceQuestion } from '@/features/invoice-threads/components/invoice-question';
import { InvoiceDetailScreen } from '@/features/invoices/components/invoice-detail-screen';

/** Spec §2 "Invoice detail" (/invoice-detail/{id}). */
export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: previous/next start each invoice afresh (scroll, download state).
  return (
    <InvoiceDetailScreen
      key={id}
      invoiceId={id}
      // Issue 23, item 7: "Preguntar sobre esta factura" / "Ver conversación".
      aside={<InvoiceQuestion invoiceId={id} />}
    />
  );
}
