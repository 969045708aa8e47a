import { InvoiceListScreen } from '@/features/invoices/components/invoice-list-screen';

/** Spec §2 "Invoice list" (/invoices and its alias /facturas). */
export function Component() {
  return <InvoiceListScreen />;
}
