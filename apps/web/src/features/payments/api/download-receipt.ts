import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';
import { getReceiptUrl, receiptFileName } from '@/lib/documents';
import { getLanguage } from '@/lib/i18n';

/**
 * The receipt of the portal payment (card or Bizum) that paid a row of "Mis pagos": the same
 * signed five-minute link as the documents page and the payment result (issue 23, item 3).
 */
export function useDownloadPaymentReceipt(receiptId: string, invoiceId: string) {
  return useMutation({
    mutationFn: () => getReceiptUrl(receiptId, getLanguage()),
    // The server names the file after the operation; this is the fallback name.
    onSuccess: (url) => downloadFile(url, receiptFileName(invoiceId)),
  });
}
