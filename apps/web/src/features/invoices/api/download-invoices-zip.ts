import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';
import { getInvoicesZipUrl, invoicesZipFileName } from '@/lib/documents';
import type { Language } from '@/lib/i18n';

/** The chosen invoices as one ZIP (at most 200, contract `maxZipInvoices`). */
export function useDownloadInvoicesZip(language: Language) {
  return useMutation({
    mutationFn: (invoiceIds: string[]) => getInvoicesZipUrl({ invoice_ids: invoiceIds }, language),
    onSuccess: (url) => downloadFile(url, invoicesZipFileName),
  });
}
