import { DocumentsScreen } from '@/features/documents/components/documents-screen';

/** Receipts and statements (issue 23, item 3): /documentos, `?recibo=` from the receipt e-mail. */
export function Component() {
  return <DocumentsScreen />;
}
