import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import type { Language } from '@/lib/i18n';

/**
 * A five-minute signed link to the invoice PDF (spec §7 "/invoice/pdf"), in the interface
 * language. Never cached: each download asks for a fresh link.
 */
export async function getInvoicePdfUrl(invoiceId: string, language: Language): Promise<string> {
  const { url } = await apiRequest('invoicePdf', { body: { invoice_id: invoiceId, language } });
  return url;
}

/** Spec §2 "Invoice detail": the download option. */
export function useDownloadInvoicePdf(invoiceId: string, language: Language) {
  return useMutation({
    mutationFn: () => getInvoicePdfUrl(invoiceId, language),
    onSuccess: (url) => downloadFile(url, `${invoiceId.replace(/[^\w.-]/g, '_')}.pdf`),
  });
}
